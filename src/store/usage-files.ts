import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../core/findings.js';
import { metaDir } from '../core/layout.js';
import { mergeUsage, parseHermesUsage, parseUsageFile, type UsageCounters, type UsageFile } from '../core/usage/index.js';

export const usageDir = `${metaDir}/usage`;

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
 * `<root>/.usage.json` of each skill root when present.
 */
export function readUsageSnapshot(repoDir: string, options: { skillsDir: string | readonly string[]; now: Date }): UsageSnapshot {
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
        message: `${size.toLocaleString('en-US')} bytes, over the ${maxUsageFileBytes.toLocaleString('en-US')}-byte limit for a usage file: skipped, not read`,
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
