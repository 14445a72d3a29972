import type { Finding } from '../core/findings.js';
import type { ForkSpec } from '../core/registry/load-content.js';

/** What `load` answers: a skill to follow, a sub-agent's work, or why there is none. */
export type LoadResult =
  | { status: 'inline'; name: string; content: string; allowedTools: string[]; findings: Finding[] }
  | {
      status: 'fork';
      name: string;
      spec: ForkSpec;
      /** The sub-agent's answer, when the host gave a runner. */ output: string | undefined;
      findings: Finding[];
    }
  | { status: 'archived'; name: string; archivedAt: string; dateSource: 'git' | 'mtime'; message: string }
  | { status: 'not-found'; name: string; suggestions: string[]; message: string }
  | { status: 'bad-name'; name: string; message: string }
  | { status: 'not-invocable'; name: string; message: string }
  /** The skill exists but is never served: its folder resolves outside the repository. */
  | { status: 'refused'; name: string; message: string };

/** The host's sub-agent runner for `context: fork` skills. */
export interface ForkRunner {
  run(spec: ForkSpec): Promise<string>;
}

export function isLoaded(result: LoadResult): result is Extract<LoadResult, { status: 'inline' | 'fork' }> {
  return result.status === 'inline' || result.status === 'fork';
}

/** The text an agent reads for any load result. */
export function renderLoadResult(result: LoadResult): string {
  switch (result.status) {
    case 'inline':
      return result.content;
    case 'fork':
      return result.output ?? `This skill runs as a sub-agent. Spec for the host's runner:\n${JSON.stringify(result.spec, null, 2)}\n`;
    default:
      return `${result.message}\n`;
  }
}
