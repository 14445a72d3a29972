import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';

/**
 * Skill names mentioned (as whole words) in files matched by the
 * `references` globs, e.g. scheduled-job definitions: such skills count as
 * in use. One bounded walk of the repository, one pass over each file.
 */
export function findReferencedNames(
  repoDir: string,
  globs: readonly string[],
  names: ReadonlySet<string>,
): { referenced: Set<string>; files: string[] } {
  const referenced = new Set<string>();
  const files: string[] = [];
  if (globs.length === 0 || names.size === 0) return { referenced, files };
  const match = picomatch([...globs], { dot: true });
  // Walk only from each glob's literal base (`cron/` for `cron/*.yaml`): not the whole skills tree.
  const bases = [...new Set(globs.map((glob) => picomatch.scan(glob).base))].filter(
    (base, _, all) => !all.some((other) => other !== base && (other === '' || base.startsWith(`${other}/`))),
  );
  const seen = new Set<string>();
  for (const path of bases.flatMap((base) => [...walk(repoDir, base, 0)])) {
    if (seen.has(path) || !match(path)) continue;
    seen.add(path);
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

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function* walk(root: string, prefix: string, depth: number): Generator<string> {
  if (depth > 12) return;
  let entries: string[];
  try {
    entries = readdirSync(join(root, prefix));
  } catch {
    // A glob without magic names one file: its base is the file itself.
    if (prefix !== '' && isFile(join(root, prefix))) yield prefix;
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
