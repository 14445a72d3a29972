import { posix } from 'node:path';
import { skillFileName } from '../layout.js';
import { relativeLink, resolveRepoLink } from './rewrite.js';
import type { SkillFile } from './types.js';

/** Where a moved file now lives: a repository path, and for a skill's SKILL.md the anchor of its section. */
export interface MovedTarget {
  path: string;
  anchor?: string;
}

/** The umbrella's files being assembled: folder-relative path → content. */
export type FileTable = Map<string, Uint8Array | string>;

/**
 * A free path for a sibling's support file in the umbrella: its own path when
 * free, else `<dir>/<sibling>-<file>`, else with a counter.
 */
export function placeSupportFile(table: ReadonlyMap<string, unknown>, sibling: string, path: string): string {
  if (!table.has(path)) return path;
  const dir = posix.dirname(path);
  const base = posix.basename(path);
  const join = (name: string) => (dir === '.' ? name : `${dir}/${name}`);
  let candidate = join(`${sibling}-${base}`);
  for (let n = 2; table.has(candidate); n++) candidate = join(`${sibling}-${n}-${base}`);
  return candidate;
}

/** True for the files whose links are rewritten when they move (Markdown); others move byte for byte. */
export function isMarkdownPath(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

export function contentText(content: Uint8Array | string): string | undefined {
  if (typeof content === 'string') return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

/** Records where every file of a moved skill went: its folder, its SKILL.md (to a section) and each support file. */
export function recordMoves(
  moves: Map<string, MovedTarget>,
  from: { dir: string; files: readonly SkillFile[] },
  to: { dir: string; anchor: string; placed: ReadonlyMap<string, string> },
): void {
  moves.set(from.dir, { path: to.dir });
  moves.set(`${from.dir}/${skillFileName}`, { path: `${to.dir}/${skillFileName}`, anchor: to.anchor });
  for (const file of from.files) {
    const placed = to.placed.get(file.path);
    if (placed !== undefined) moves.set(`${from.dir}/${file.path}`, { path: `${to.dir}/${placed}` });
  }
}

/**
 * The link mapping for a file moving from `oldFile` to `newFile`: targets that
 * moved follow their file; others keep pointing at the same place from the
 * new folder. Undefined keeps a link as written.
 */
export function mapMovedLink(
  oldFile: string,
  newFile: string,
  moves: ReadonlyMap<string, MovedTarget>,
): (target: string) => string | undefined {
  return (target) => {
    const resolved = resolveRepoLink(oldFile, target);
    if (!resolved) return undefined;
    const moved = moves.get(resolved.path);
    if (!moved && oldFile === newFile) return undefined;
    const destination = moved?.path ?? resolved.path;
    const suffix = moved?.anchor !== undefined && !resolved.suffix.includes('#') ? `#${moved.anchor}` : resolved.suffix;
    if (destination === newFile && suffix.startsWith('#')) return suffix;
    const next = relativeLink(newFile, destination) + suffix;
    return next === target ? undefined : next;
  };
}
