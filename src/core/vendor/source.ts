import { SkillgardenError } from '../errors.js';
import type { SourceType } from './lock.js';

export interface ResolvedSource {
  /** As given (what the lock's `source` keeps). */
  source: string;
  sourceType: SourceType;
  /** What git fetches. */
  url: string;
}

const shorthand = /^[A-Za-z0-9][A-Za-z0-9_.-]*\/[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * SOURCE as `add` takes it: a URL git understands (`https://`, `file://`, `ssh://`, `git@host:path`), a local path
 * (`localPath`: its absolute form, when it exists), or `owner/repo` on GitHub.
 */
export function resolveSource(input: string, localPath: string | undefined): ResolvedSource {
  const source = input.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[\w.-]+@[\w.-]+:/.test(source)) return { source, sourceType: 'git', url: source };
  if (localPath !== undefined) return { source, sourceType: 'local', url: localPath };
  if (shorthand.test(source)) return { source, sourceType: 'github', url: `https://github.com/${source.replace(/\.git$/, '')}.git` };
  throw new SkillgardenError(
    'vendor/bad-source',
    `"${source.slice(0, 200)}" is not a git URL, an existing folder, or owner/repo. Give one of those, e.g. anthropics/skills or file:///path/to/repo.`,
    { data: { source, exitCode: 2 } },
  );
}
