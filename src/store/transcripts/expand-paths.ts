import { opendir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import picomatch from 'picomatch';

export interface ExpandOptions {
  /** Relative globs and paths are resolved against this folder (default: the current directory). */
  cwd?: string;
  /** Stop walking after this many entries, so a glob at `/` cannot run for ever (1,000,000). */
  maxEntries?: number;
}

const transcriptFile = /\.(jsonl|ndjson|json|traj)$/i;
const skippedDirs = new Set(['node_modules', '.git']);

/** The fixed folder a glob starts in: its leading segments without glob characters. */
function globBase(pattern: string): string {
  const parts = pattern.split(/[\\/]/);
  const fixed: string[] = [];
  for (const part of parts) {
    if (picomatch.scan(part).isGlob) break;
    fixed.push(part);
  }
  return fixed.join('/') || '.';
}

async function* walk(dir: string, budget: { left: number }): AsyncGenerator<string> {
  let handle;
  try {
    handle = await opendir(dir);
  } catch {
    return;
  }
  const entries: { name: string; isDir: boolean; isFile: boolean }[] = [];
  for await (const entry of handle) {
    if (--budget.left < 0) break;
    entries.push({
      name: entry.name,
      isDir: entry.isDirectory(),
      isFile: entry.isFile(),
    });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isFile) yield path;
    else if (entry.isDir && !skippedDirs.has(entry.name)) yield* walk(path, budget);
  }
}

export interface ExpandResult {
  /** Absolute paths, sorted, without duplicates. */
  files: string[];
  /** Patterns that matched no file. */
  unmatched: string[];
  /** True when the walk stopped at `maxEntries`. */
  truncated: boolean;
  /** The folder each file was found under (a glob's fixed part, the folder named, or a named file's folder). */
  roots: Map<string, string>;
}

async function matchPattern(pattern: string, cwd: string, budget: { left: number }): Promise<{ root: string; matched: string[] }> {
  const matched: string[] = [];
  if (picomatch.scan(pattern).isGlob) {
    const isMatch = picomatch(resolve(cwd, pattern).split(sep).join('/'), {
      dot: true,
    });
    const root = resolve(cwd, globBase(pattern));
    for await (const file of walk(root, budget)) if (isMatch(file.split(sep).join('/'))) matched.push(file);
    return { root, matched };
  }
  const path = resolve(cwd, pattern);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) {
    for await (const file of walk(path, budget)) if (transcriptFile.test(file)) matched.push(file);
    return { root: path, matched };
  }
  if (info?.isFile()) matched.push(path);
  return { root: dirname(path), matched };
}

/**
 * Expands transcript paths and globs (picomatch syntax) to files. A folder
 * means every `.jsonl`/`.ndjson`/`.json`/`.traj` file under it. Patterns that
 * match nothing are returned, not thrown, so a report can name them.
 */
export async function expandTranscriptPaths(patterns: readonly string[], options: ExpandOptions = {}): Promise<ExpandResult> {
  const cwd = options.cwd ?? process.cwd();
  const budget = { left: options.maxEntries ?? 1_000_000 };
  const roots = new Map<string, string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const { root, matched } = await matchPattern(pattern, cwd, budget);
    if (matched.length === 0) unmatched.push(pattern);
    for (const file of matched) if (!roots.has(file)) roots.set(file, root);
  }
  return { files: [...roots.keys()].sort(), unmatched, truncated: budget.left < 0, roots };
}
