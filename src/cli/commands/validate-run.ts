import { resolve } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { compareFindings, type Finding } from '../../core/findings.js';
import { toFindings } from '../../core/scan/report.js';
import { isProfileName, profileNames } from '../../core/schema/types.js';
import { requireConfig } from '../../services/config-file.js';
import type { ValidateReport } from '../../services/validate.js';
import type { OpenedMemo } from '../../services/validate-memo.js';
import {
  earlyWorkerCount,
  listUncheckedSkills,
  runValidatePass,
  startWorkersEarly,
  type ValidatePassOptions,
} from '../../services/validate-pass.js';
import { createDirCache, recordListings } from '../../store/dir-cache.js';
import { openKeptListings } from '../../store/dir-listings-file.js';
import { digestStamps, stampPaths } from '../../store/folder-stamp.js';
import { indexEntryCount } from '../../store/index-count.js';
import { openLibrary, requireSkills } from '../../store/layout/discover-library.js';
import type { CommandContext } from '../context.js';
import { createProgress } from '../progress.js';
import type { Format } from './validate.js';

/**
 * `validate`'s pass as the command's options ask, its findings merged with
 * the scan's. With `memo`, a run on one thread keeps its report with the
 * stamps of every folder it listed and every file in them (validate-memo.ts).
 * `groups`: per finding, the skill a scan finding is about (else null).
 */
export async function runValidateCommand(
  { io, global, positionals, values }: CommandContext,
  format: Format,
  memo: OpenedMemo | undefined,
): Promise<{ report: ValidateReport; groups: (string | null)[] }> {
  const began = Date.now();
  const config = requireConfig(global.repo);
  const profile = values.profile ?? config.profile;
  if (!isProfileName(profile)) {
    throw new SkillgardenError('cli/usage', `unknown profile "${String(profile)}"; choose one of: ${profileNames.join(', ')}`);
  }
  const progress = createProgress(io, 'validating', format === 'text' && !io.env.CI);
  const allowEmpty = values['allow-empty'] === true;
  // Paths resolve against --repo, as `git -C` does; findings are reported relative to it.
  const paths = positionals;
  const cache = values['no-cache'] !== true;
  // Discovery's folder listings are the pass's: each skill folder is listed once. With the caches, a folder whose stat is
  // the one an earlier run kept with its listing is not listed again (dir-cache.ts).
  // The whole library (or the whole repository, as `validate .`) only: a run over a few paths would read every listing
  // kept to use a handful.
  const whole = paths.length === 0 || paths.every((path) => resolve(global.repo, path) === global.repo);
  const kept = cache && whole ? await openKeptListings(global.repo) : undefined;
  // One pass per skill (validate, then the scan on the SKILL.md validate read), over the machine's cores for a large library.
  const threads = readThreads(io.env.SKILLGARDEN_THREADS);
  // A first run over a large library (no listings kept, a big index): its workers start early, and load while discovery runs.
  const coldLibrary = threads === undefined && kept !== undefined && kept.kept.size === 0;
  const early = coldLibrary ? earlyWorkerCount(indexEntryCount(kept.gitdir)) : 0;
  // With the memo, every thread notes what it lists and probes, and stamps it once its chunks are done (this thread
  // while the workers finish theirs).
  const recording = memo !== undefined;
  const listed = new Set<string>();
  const cached = createDirCache(undefined, kept?.kept);
  const readDir = recording ? recordListings(cached, listed) : cached;
  const probes = new Map<string, boolean>();
  const passOptions: ValidatePassOptions = {
    repo: global.repo,
    paths,
    profile,
    ...(config.links ? { links: config.links } : {}),
    scan: values['no-scan'] === true ? false : config.scan,
    cache,
    onProgress: progress.update,
    readDir,
    ...(kept ? { keptListings: true } : {}),
    ...(threads === undefined ? {} : { threads }),
    ...(recording
      ? {
          onProbe: (path: string, existed: boolean) => probes.set(path, existed),
          stampsSince: began,
          stampOwn: () => stampPaths(listed, cached, began),
        }
      : {}),
  };
  const earlyWorkers = early > 0 ? startWorkersEarly(passOptions, early) : undefined;
  // With workers, discovery only probes each folder for SKILL.md: the listings are made by the threads, side by side.
  const probe = earlyWorkers ? { probe: 'stat' as const } : {};
  let pass;
  try {
    const library =
      paths.length > 0 ? undefined : requireSkills(openLibrary(global.repo, config.skills_dir, { readDir, ...probe }), { allowEmpty });
    if (library && recording && earlyWorkers) listUncheckedSkills(library, readDir);
    pass = await runValidatePass({ ...passOptions, ...(library ? { library } : {}), ...(earlyWorkers ? { early: earlyWorkers } : {}) });
  } catch (error) {
    // A worker left waiting would keep the process alive.
    earlyWorkers?.workers.forEach((w) => w.stop());
    throw error;
  }
  kept?.save(readDir.fresh());
  const report = pass.report;
  progress.done();
  if (report.skills === 0 && paths.length > 0 && !allowEmpty) {
    throw new SkillgardenError(
      'library/empty',
      `no skills under ${paths.join(', ')} (a skill is a folder holding SKILL.md). Pass --allow-empty to accept that.`,
      { data: { exitCode: 2 } },
    );
  }
  const groupOf = new Map<Finding, string>();
  if (pass.scan) {
    const scan = pass.scan;
    const found = toFindings(scan.findings);
    found.forEach((f, i) => groupOf.set(f, scan.findings[i]!.skill));
    mergeFindings(report, found);
  }
  const groups = report.findings.map((f) => groupOf.get(f) ?? null);
  // Kept by a first run and by a run the caches answered whole, once every thread stamped what it listed: a run after an
  // edit (the edited skill computed afresh) does not pay for stamping a library that is being changed; the run after it,
  // with nothing new to compute, keeps the report for the next.
  const stamped = pass.threadStamps;
  const own = pass.ownStamps;
  if (memo && stamped && own && (pass.firstRun || pass.computed === 0) && memo.configHolds()) {
    memo.save(digestStamps([...own, ...stamped.paths], global.repo), [...probes, ...stamped.probes], report, groups);
  }
  return { report, groups };
}

/** Adds the security scan's findings to the report, in order, with the counts kept true. */
export function mergeFindings(report: ValidateReport, extra: readonly Finding[]): void {
  report.findings.push(...extra);
  report.findings.sort(compareFindings);
  report.errors = report.findings.filter((f) => f.severity === 'error').length;
  report.warnings = report.findings.filter((f) => f.severity === 'warning').length;
}

/** `SKILLGARDEN_THREADS`: how many threads the pass uses whatever the library's size (tests and benchmarks); unset: decided by size. */
function readThreads(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 1) {
    throw new SkillgardenError('cli/usage', `SKILLGARDEN_THREADS=${JSON.stringify(value)}: give a whole number of threads, 1 or more`);
  }
  return threads;
}
