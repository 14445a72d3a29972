import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';

/**
 * Skill names mentioned (as whole words) in files matched by the
 * `references` globs, e.g. scheduled-job definitions: such skills count as
 * in use. One bounded walk of the repository, one pass over each file.
 */
export function findReferencedNames(repoDir: string, globs: readonly string[], names: ReadonlySet<string>): { referenced: Set<string>; files: string[] } {
  const referenced = new Set<string>();
  const files: string[] = [];
  if (globs.length === 0 || names.size === 0) return { referenced, files };
  const match = picomatch([...globs], { dot: true });
  for (const path of walk(repoDir, '', 0)) {
    if (!match(path)) continue;
    files.push(path);
    let text: string;
    try {
      text = readFileSync(join(repoDir, path), 'utf8');
    } catch {
      continue;
    }
    for (const token of text.split(/[^A-Za-z0-9._-]+/)) {
      const word = token.replace(/^[._-]+|[._-]+$/g, '');
      if (names.has(word)) referenced.add(word);
    }
  }
  return { referenced, files };
}

function* walk(root: string, prefix: string, depth: number): Generator<string> {
  if (depth > 12) return;
  let entries: string[];
  try {
    entries = readdirSync(join(root, prefix));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry === '.git' || entry === 'node_modules') continue;
    const path = prefix ? `${prefix}/${entry}` : entry;
    let isDir = false;
    try {
      isDir = statSync(join(root, path)).isDirectory();
    } catch {
      continue;
    }
    if (isDir) yield* walk(root, path, depth + 1);
    else yield path;
  }
}
