import { createHash } from 'node:crypto';
import { metaDir } from '../layout.js';

/** The run-wide state (and, in version 1, every record): `.skillgarden/state.json`. */
export const stateFile = `${metaDir}/state.json`;
/** One file per skill that has a record: `.skillgarden/state/<recordShard(name)>/<recordFileName(name)>`. */
export const stateRecordDir = `${metaDir}/state`;

/** Kept as they are in a record's file name; every other byte is written `%XX`. */
const plain = /^[a-z0-9_.-]$/;
/** Names Windows will not create whatever the extension. */
const reserved = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * A skill name as a file name that is safe on every file system and reversible (`recordName`): lowercase letters,
 * digits, `_`, `-` and `.` (not first) stay; every other byte of the UTF-8 name is `%XX` (upper-case hex), so
 * `plugin:skill` is `plugin%3Askill.json`, `Zeta` is `%5Aeta.json` (no two names meet on a case-insensitive disk),
 * and no name is `.`/`..`, hidden, or holds a `/`. A Windows device name (`con`) has its first letter encoded.
 */
export function recordFileName(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && plain.test(char) && !(out === '' && char === '.') ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (reserved.test(out)) out = `%${out.charCodeAt(0).toString(16).toUpperCase()}${out.slice(1)}`;
  return `${out}.json`;
}

/** The skill name a record file is for; `undefined` when the name is not one `recordFileName` writes. */
export function recordName(fileName: string): string | undefined {
  if (!fileName.endsWith('.json')) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(fileName.slice(0, -'.json'.length));
  } catch {
    return undefined;
  }
  return name !== '' && recordFileName(name) === fileName ? name : undefined;
}

/**
 * The folder of a skill's record: the first two hex digits of the SHA-1 of its name, as git fans out its objects. A
 * commit rewrites each tree on its path; with one flat folder, a library with a record per skill (seeded, stale) had
 * each transition commit rewrite a tree of every record, as the one state file was rewritten before. 256 folders keep
 * each tree small (measured in BENCHMARKS.md, "Wave 12": migrating 5,000 records, git CPU 4.3 s flat, 0.87 s fanned out).
 */
export function recordShard(name: string): string {
  return createHash('sha1').update(name, 'utf8').digest('hex').slice(0, 2);
}

/** The repository path of a skill's record. */
export function recordPath(name: string): string {
  return `${stateRecordDir}/${recordShard(name)}/${recordFileName(name)}`;
}

/** The skill a record's repository-relative path is for; `undefined` when the path is not one `recordPath` gives. */
export function recordNameAt(path: string): string | undefined {
  const prefix = `${stateRecordDir}/`;
  if (!path.startsWith(prefix)) return undefined;
  const [shard, file, ...rest] = path.slice(prefix.length).split('/');
  const name = rest.length === 0 && file !== undefined ? recordName(file) : undefined;
  return name !== undefined && recordShard(name) === shard ? name : undefined;
}
