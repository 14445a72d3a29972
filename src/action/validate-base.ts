import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../core/findings.js';
import type { ReportFinding } from '../core/scan/report.js';
import { applyBaseline, buildFindingsBaseline } from '../services/baseline.js';
import type { Config } from '../core/config/config.js';
import type { DiscoveredLibrary } from '../services/library.js';
import { readEvent } from './event.js';
import { Git } from './git.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { prepareScratch } from './repo-ops.js';
import type { Problem } from './problem.js';

/** One tree's check: the summary's rows, and the findings behind them (for SARIF). */
export interface CheckedTree {
  skills: number;
  problems: Problem[];
  findings: Finding[];
  /** Scan findings a suppression covers: listed in the summary, never silently dropped. */
  suppressed: ReportFinding[];
}

export type CollectProblems = (
  inputs: ActionInputs,
  dir: string,
  paths: string[] | undefined,
  library?: DiscoveredLibrary,
  policy?: Config,
) => Promise<CheckedTree>;

/**
 * On a pull request, the same check of its base commit, in a private clone
 * (the checkout is left as the workflow made it). Undefined when the event is
 * no pull request, or the base cannot be read: then every finding counts, as
 * before, and the log says why.
 */
export async function readBaseProblems(
  inputs: ActionInputs,
  io: ActionIo,
  paths: string[] | undefined,
  collect: CollectProblems,
): Promise<{ ref: string; problems: Problem[] } | undefined> {
  const pr = readEvent(inputs.github.eventPath).pullRequest;
  if (!pr || (paths && paths.length === 0)) return undefined;
  const ref = pr.baseRef || pr.baseSha.slice(0, 12);
  const workspace = new Git(inputs.workspace);
  const dir = mkdtempSync(join(inputs.github.runnerTemp, 'skillgarden-base-'));
  try {
    if ((await workspace.run(['cat-file', '-e', `${pr.baseSha}^{commit}`], { allowFailure: true })).code !== 0)
      await workspace.run(['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', pr.baseSha]);
    await prepareScratch(workspace, dir, pr.baseSha, 'skillgarden-base');
    // A skill the pull request adds has no folder on the base: nothing there to compare.
    const basePaths = paths?.filter((p) => existsSync(join(dir, p)));
    if (basePaths && basePaths.length === 0) return { ref, problems: [] };
    return { ref, problems: (await collect(inputs, dir, basePaths)).problems };
  } catch (error) {
    io.info(
      `Could not check the base commit ${pr.baseSha.slice(0, 12)} (${(error as Error).message.split('\n')[0]}): every finding is reported as this pull request's. Set \`fetch-depth: 0\` on actions/checkout to compare with the base.`,
    );
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A finding is the base's when the base has it (code, file and message, as in a validate baseline), whatever its line. */
export function splitByBase(problems: readonly Problem[], base: readonly Problem[]): { fresh: Problem[]; known: Problem[] } {
  const { fresh, known } = applyBaseline(problems, buildFindingsBaseline(base));
  return { fresh, known };
}
