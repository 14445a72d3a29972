import { appendFileSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { metaDir } from '../core/layout.js';
import {
  keyUsageByClientName,
  mergeUsage,
  parseHermesUsage,
  parseUsageFile,
  type UsageCounters,
  type UsageFile,
} from '../core/usage/index.js';
import { parsePendingBumps, serializePendingBump, type UsageBump } from '../core/usage/pending-bumps.js';
import { writeFileAtomic } from './files.js';
import { formatCount } from '../core/format-count.js';

/**
 * Every usage file is read and written here: each writer's committed `.skillgarden/usage/<writer>.json` (read from
 * the working tree; committed through the Ledger by services/usage.ts, with the path and bytes this module gives) and
 * its pending bumps in `<git dir>/skillgarden/usage-pending/<writer>.jsonl`, outside the tracked tree.
 */
export const usageDir = `${metaDir}/usage`;

/** The repository path of a writer's committed usage file. */
export function usageFilePath(writer: string): string {
  return `${usageDir}/${writer}.json`;
}

/** A usage file's bytes as committed: skills sorted, so two writers' runs give the same file for the same counts. */
export function renderUsageFile(file: UsageFile): string {
  const skills = Object.fromEntries(Object.entries(file.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `${JSON.stringify({ ...file, skills }, null, 2)}\n`;
}

/**
 * A writer's file holds one small record per skill: 8 MiB is some 40,000
 * skills. A larger file is reported and skipped before it is read, so a
 * runaway (or hostile) writer cannot make every read of the library slow.
 */
export const maxUsageFileBytes = 8 * 1024 * 1024;

export interface UsageSnapshot {
  /** Sum of counts and latest of times over every readable writer file. */
  totals: Map<string, UsageCounters>;
  files: { writer: string; path: string; file: UsageFile }[];
  /** Repository-relative paths of files that could not be read: set aside, never overwritten. */
  quarantined: string[];
  findings: Finding[];
}

/**
 * Reads every writer's usage file in the working tree, and Hermes Agent's
 * `<root>/.usage.json` of each skill root when present. Given the library's skill names (`skills`: `plugin:skill` or
 * plain), totals are keyed by them: an old record under a plugin skill's folder name counts for it when only one
 * plugin has a skill of that name, and is reported (`usage/ambiguous-name`) when several do.
 */
export function readUsageSnapshot(
  repoDir: string,
  options: { skillsDir: string | readonly string[]; now: Date; skills?: readonly string[] },
): UsageSnapshot {
  const snapshot: UsageSnapshot = { totals: new Map(), files: [], quarantined: [], findings: [] };
  for (const { path, writer, hermes: isHermes } of listUsageFiles(repoDir, options.skillsDir)) {
    if (isHermes) {
      const hermes = readOne(repoDir, path, (text) => parseHermesUsage(text, { path, now: options.now }), snapshot, true);
      if (hermes) snapshot.files.push({ writer, path, file: hermes });
      continue;
    }
    const parsed = readOne(repoDir, path, (text) => parseUsageFile(text, { path, writer, now: options.now }), snapshot);
    if (parsed) snapshot.files.push({ writer, path, file: parsed });
  }
  snapshot.totals = mergeUsage(snapshot.files.map((f) => f.file));
  if (options.skills) {
    const keyed = keyUsageByClientName(snapshot.totals, options.skills);
    snapshot.totals = keyed.totals;
    for (const { key, ids } of keyed.ambiguous) {
      for (const { path } of snapshot.files.filter((f) => f.file.skills[key] !== undefined)) {
        snapshot.findings.push({
          code: 'usage/ambiguous-name',
          severity: 'warning',
          file: path,
          line: 0,
          column: 0,
          message: `usage recorded under "${key}", which ${ids.length} plugins' skills share (${ids.join(', ')}): counted for none of them`,
          hint: `Usage is now recorded as the client names the skill (${ids[0]}). Move the old counts to the right name in ${path} by hand, or leave them: they age out.`,
        });
      }
    }
  }
  return snapshot;
}

function readOne(
  repoDir: string,
  path: string,
  parse: (text: string) => { file: UsageFile | undefined; findings: Finding[] },
  snapshot: UsageSnapshot,
  optional = false,
): UsageFile | undefined {
  let text: string;
  try {
    const size = statSync(join(repoDir, path)).size;
    if (size > maxUsageFileBytes) {
      snapshot.quarantined.push(path);
      snapshot.findings.push({
        code: 'usage/too-large',
        severity: 'error',
        file: path,
        line: 0,
        column: 0,
        message: `${formatCount(size)} bytes, over the ${formatCount(maxUsageFileBytes)}-byte limit for a usage file: skipped, not read`,
        hint: 'Usage from other writers still counts. Move the file aside, or delete it to start that writer afresh.',
      });
      return undefined;
    }
    text = readFileSync(join(repoDir, path), 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    snapshot.quarantined.push(path);
    snapshot.findings.push({
      code: 'usage/unreadable',
      severity: 'error',
      file: path,
      line: 0,
      column: 0,
      message: `cannot read: ${(error as Error).message}`,
      hint: 'Usage from other writers still counts.',
    });
    return undefined;
  }
  const parsed = parse(text);
  snapshot.findings.push(...parsed.findings);
  if (!parsed.file) snapshot.quarantined.push(path);
  return parsed.file;
}

/**
 * Every usage file a library may hold, in reading order: each writer's `.skillgarden/usage/<writer>.json`
 * (sorted), then Hermes Agent's `.usage.json` in each skill root (`hermes`: its own format). Missing ones included.
 */
export function listUsageFiles(
  repoDir: string,
  skillsDir: string | readonly string[],
): { path: string; writer: string; hermes: boolean }[] {
  let names: string[] = [];
  try {
    names = readdirSync(join(repoDir, usageDir))
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch {
    names = [];
  }
  const roots = typeof skillsDir === 'string' ? [skillsDir] : skillsDir;
  return [
    ...names.map((name) => ({ path: `${usageDir}/${name}`, writer: name.slice(0, -'.json'.length), hermes: false })),
    ...roots.map((root) => ({ path: root === '' ? '.usage.json' : `${root}/.usage.json`, writer: 'hermes', hermes: true })),
  ];
}

function pendingPath(gitDir: string, writer: string): string {
  return join(gitDir, 'skillgarden', 'usage-pending', `${writer}.jsonl`);
}

/** A writer's pending bumps; none when the file is missing or unreadable (telemetry never stops a reader). */
export function readPendingBumps(gitDir: string, writer: string): UsageBump[] {
  return parsePendingBumps(readOrEmpty(pendingPath(gitDir, writer)));
}

/** Appends one bump to the writer's pending file, under its lock. */
export async function appendPendingBump(gitDir: string, writer: string, bump: UsageBump): Promise<void> {
  const path = pendingPath(gitDir, writer);
  mkdirSync(join(gitDir, 'skillgarden', 'usage-pending'), { recursive: true });
  await withLock(`${path}.lock`, () => {
    // A line torn by a crash must not swallow this one: start on a fresh line.
    const text = readOrEmpty(path);
    appendFileSync(path, `${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}${serializePendingBump(bump)}`);
  });
}

/**
 * Hands the writer's pending bumps to `consume` under the file's lock, then keeps only what was appended meanwhile
 * (bumps from other processes of the writer that `consume` did not see): the bumps it saw are gone once it returns.
 * When it throws, the file is left as it was.
 */
export async function consumePendingBumps<T>(gitDir: string, writer: string, consume: (bumps: UsageBump[]) => Promise<T>): Promise<T> {
  const path = pendingPath(gitDir, writer);
  mkdirSync(join(gitDir, 'skillgarden', 'usage-pending'), { recursive: true });
  return withLock(`${path}.lock`, async () => {
    const raw = readOrEmpty(path);
    const bumps = parsePendingBumps(raw);
    const result = await consume(bumps);
    if (bumps.length > 0) writeFileAtomic(path, readOrEmpty(path).slice(raw.length));
    return result;
  });
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A lock file created exclusively, as git does; retried briefly, then a clear error naming it. */
async function withLock<T>(lock: string, fn: () => T | Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (attempt >= 200) {
        throw new SkillgardenError(
          'usage/locked',
          `${lock} is held; if no skillgarden process is running, a crashed one left it: run \`skillgarden doctor\` to see what is left, then remove ${lock} by hand`,
          { data: { lock } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
