import { stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { buildListedSkills, listingBudgets, type PlannedMerge } from '../../core/evidence/budget.js';
import { defaultMinSessions, EvidenceAccumulator, type EvidenceReport, type EvidenceSkip } from '../../core/evidence/index.js';
import type { FileReadResult } from '../../store/transcripts/collector.js';
import { libraryRoots } from '../../store/layout/discover-library.js';
import { expandTranscriptPaths, readTranscriptFiles } from '../../store/transcripts/index.js';
import { requireConfig } from '../config-file.js';
import { readLibrary } from '../curator/read-library.js';
import { noTranscriptMatch } from '../detect.js';
import { readLog } from '../history.js';
import { readEvidenceSkill, readLedgerFacts } from './library-inputs.js';

export interface EvidenceRunOptions {
  /** The library's repository. */
  repoDir: string;
  /** Transcript files, folders or globs; relative ones resolve against the repository. */
  transcripts: readonly string[];
  /** Sessions before this ISO time are left out. */
  since?: string;
  /** The clock (default: now). */
  now?: Date;
  /** The fewest sessions a rate stands on (5). */
  minSessions?: number;
  /** The library's skills folder, over the config's `skills_dir` (the Action's `skills-dir`). */
  skillsDir?: string;
  /** The context window in tokens the listing budgets scale with (200,000): docs/listing-budget.md. */
  contextTokens?: number;
  /** Umbrella merges already planned: the budget advice counts what they save. */
  plannedMerges?: readonly PlannedMerge[];
}

/** A transcript named relative to the folder it was found under: never absolute (an absolute path names a person's home). */
export function evidenceDisplayPath(file: string, root: string | undefined): string {
  const rel = root === undefined ? '' : relative(root, file);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? basename(file) : rel.split(sep).join('/');
}

function checkTime(value: string | undefined, option: string): void {
  if (value !== undefined && Number.isNaN(Date.parse(value)))
    throw new SkillgardenError(
      'evidence/bad-time',
      `${option} "${value.slice(0, 40)}" is not a time: give an ISO time such as 2026-01-31T00:00:00Z`,
    );
}

/** What an evidence run folds the transcripts into, one file at a time, and the report it makes of them. */
export interface EvidenceFold {
  add(result: FileReadResult): void;
  /** Input the reading side could not use (a glob without match, a walk cut short). */
  skip(skip: EvidenceSkip): void;
  finish(): EvidenceReport;
}

/** Reads the library and its history once, for an evidence run; the transcripts are then added to it one file at a time. */
export async function startEvidence(options: Omit<EvidenceRunOptions, 'transcripts'>): Promise<EvidenceFold> {
  checkTime(options.since, '--since');
  const now = options.now ?? new Date();
  const repoDir = resolve(options.repoDir);
  const config = requireConfig(repoDir, { needs: ['skills_dir'] });
  const snapshot = await readLibrary(repoDir, {
    now,
    config: options.skillsDir === undefined ? config : { ...config, skills_dir: options.skillsDir },
  });
  const facts = readLedgerFacts(await readLog(repoDir, { skillsRoot: libraryRoots(snapshot.library.layout) }));
  const skills = await Promise.all(snapshot.skills.map((skill) => readEvidenceSkill(skill, snapshot.history, facts)));
  const historyNames = [
    ...Object.keys(snapshot.history.skills),
    ...Object.keys(snapshot.history.deleted),
    ...snapshot.archived.map((a) => a.name),
  ];
  const accumulator = new EvidenceAccumulator({
    skills,
    historyNames,
    now: now.toISOString(),
    minSessions: options.minSessions ?? defaultMinSessions,
    ...(options.since === undefined ? {} : { since: options.since }),
  });
  return {
    add(result) {
      if (result.partial !== true) accumulator.addFile(result.skipped);
      for (const session of result.sessions) accumulator.add(session);
    },
    skip(skip) {
      accumulator.addSkip(skip);
    },
    finish() {
      const report = accumulator.finish();
      const budgetOptions = { contextTokens: options.contextTokens, plannedMerges: options.plannedMerges };
      return { ...report, budget: listingBudgets(buildListedSkills(skills, report.skills), budgetOptions) };
    },
  };
}

/** The `skipped` entries of transcript paths that matched nothing (or a walk stopped at its limit), as evidence reports them. */
export function evidenceSkipsOf(expanded: { unmatched: readonly string[]; truncated: boolean }): EvidenceSkip[] {
  const skips: EvidenceSkip[] = expanded.unmatched.map((pattern) => ({ file: pattern, reason: noTranscriptMatch, count: 1 }));
  if (expanded.truncated) skips.push({ reason: 'directory walk stopped at its entry limit', count: 1 });
  return skips;
}

/**
 * `skillgarden evidence`: per skill of the library, the sessions that had it, loaded it, needed it and did not load it
 * (missed), and how sessions with it and without it went. Reads the library and its history once, then folds the
 * transcripts one file at a time. Reads only.
 */
export async function runEvidence(options: EvidenceRunOptions): Promise<EvidenceReport> {
  const fold = await startEvidence(options);
  const expanded = await expandTranscriptPaths(options.transcripts, { cwd: resolve(options.repoDir) });
  const files = readTranscriptFiles(expanded.files, { displayPath: (file) => evidenceDisplayPath(file, expanded.roots.get(file)) });
  for (const skip of evidenceSkipsOf(expanded)) fold.skip(skip);
  for await (const result of files) fold.add(result);
  return fold.finish();
}

/**
 * `runEvidence` for a long-running server (the MCP tool `skill_evidence`): each transcript file is read once and kept
 * with the size and modification time it had, and read again only when either changed; files no longer matched are
 * let go. The library is read on every call (its skills and history may change). Holds the sessions of every file.
 */
export class EvidenceReader {
  private readonly files = new Map<string, { size: number; mtimeMs: number; result: FileReadResult }>();

  async run(options: EvidenceRunOptions): Promise<EvidenceReport> {
    const fold = await startEvidence(options);
    const expanded = await expandTranscriptPaths(options.transcripts, { cwd: resolve(options.repoDir) });
    for (const skip of evidenceSkipsOf(expanded)) fold.skip(skip);
    const display = (file: string) => evidenceDisplayPath(file, expanded.roots.get(file));
    const stats = await Promise.all(expanded.files.map((file) => stat(file).catch(() => undefined)));
    const keys = expanded.files.map((file) => `${display(file)}\0${file}`);
    const changed = expanded.files.filter((_, i) => {
      const known = this.files.get(keys[i] as string);
      const now = stats[i];
      return known === undefined || now === undefined || known.size !== now.size || known.mtimeMs !== now.mtimeMs;
    });
    const fresh = new Map<string, FileReadResult>();
    let at = 0;
    // A file's parts kept as one result: it is held whole anyway, to be folded again on the next call.
    let parts: FileReadResult[] = [];
    for await (const result of readTranscriptFiles(changed, { displayPath: display })) {
      parts.push(result);
      if (result.partial === true) continue;
      fresh.set(changed[at++] as string, parts.length === 1 ? result : joinParts(parts));
      parts = [];
    }
    const kept = new Set(keys);
    for (const key of this.files.keys()) if (!kept.has(key)) this.files.delete(key);
    expanded.files.forEach((file, i) => {
      const key = keys[i] as string;
      const result = fresh.get(file);
      const now = stats[i];
      if (result !== undefined && now !== undefined) this.files.set(key, { size: now.size, mtimeMs: now.mtimeMs, result });
      fold.add(result ?? (this.files.get(key)?.result as FileReadResult));
    });
    return fold.finish();
  }
}

/** A file's parts as one result (the last part's format and skips). */
function joinParts(parts: readonly FileReadResult[]): FileReadResult {
  const last = parts.at(-1) as FileReadResult;
  return { ...last, sessions: parts.flatMap((p) => p.sessions), uses: parts.flatMap((p) => p.uses) };
}
