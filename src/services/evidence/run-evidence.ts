import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { defaultMinSessions, EvidenceAccumulator, type EvidenceReport } from '../../core/evidence/index.js';
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
}

/** A transcript named relative to the folder it was found under: never absolute (an absolute path names a person's home). */
function displayPath(file: string, root: string | undefined): string {
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

/**
 * `skillgarden evidence`: per skill of the library, the sessions that had it, loaded it, needed it and did not load it
 * (missed), and how sessions with it and without it went. Reads the library and its history once, then folds the
 * transcripts one file at a time. Reads only.
 */
export async function runEvidence(options: EvidenceRunOptions): Promise<EvidenceReport> {
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
  const expanded = await expandTranscriptPaths(options.transcripts, { cwd: repoDir });
  for (const pattern of expanded.unmatched) accumulator.addSkip({ file: pattern, reason: noTranscriptMatch, count: 1 });
  if (expanded.truncated) accumulator.addSkip({ reason: 'directory walk stopped at its entry limit', count: 1 });
  const files = readTranscriptFiles(expanded.files, { displayPath: (file) => displayPath(file, expanded.roots.get(file)) });
  for await (const result of files) {
    accumulator.addFile(result.skipped);
    for (const session of result.sessions) accumulator.add(session);
  }
  return accumulator.finish();
}
