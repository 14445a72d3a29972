import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { versionOf, type SkillChange } from '../../core/publish/discovery-index.js';
import type { Ledger } from '../../ledger/ledger.js';
import { runGitChecked } from '../../ledger/history-git.js';
import { blobId } from '../../store/files.js';
import { listRegularFiles } from '../../store/regular-files.js';
import { readLock } from '../vendor/vendored-skill.js';

export const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** The files a skill is published with: its regular files, path → bytes, in the listing's order. */
export function readPublishedFiles(dir: string): Map<string, Uint8Array> {
  const listed = listRegularFiles(dir, { maxFiles: 5000, maxDepth: 16 });
  return new Map([...listed.files.keys()].map((path) => [path, readFileSync(join(dir, path)) as Uint8Array]));
}

export interface SkillVersion {
  version: string;
  /** The commits that changed the skill's folder, newest first. */
  history: SkillChange[];
  /** Set while the working copy differs from HEAD: the digest in the `-dev.` suffix. */
  dirtyDigest: string | undefined;
}

/**
 * The one version of a skill every surface names (`publish`, MCP `skills/list`):
 * `0.<commits>.0`, `-dev.<digest>` while uncommitted, `+upstream.<commit>` when vendored.
 */
export async function readSkillVersion(input: {
  repoDir: string;
  ledger: Ledger;
  /** The skill's folder relative to the repository. */
  relDir: string;
  files: ReadonlyMap<string, Uint8Array>;
  /** The upstream commit `skills-lock.json` pins, for a vendored skill. */
  pinned: string | undefined;
}): Promise<SkillVersion> {
  const history = await readSkillHistory(input.repoDir, input.relDir);
  const dirty = await isDirty(input.ledger, input.relDir, input.files);
  const dirtyDigest = dirty ? sha256(Buffer.concat([...input.files.values()])) : undefined;
  const version = versionOf(history, dirtyDigest === undefined ? undefined : { digest: dirtyDigest }, input.pinned);
  return { version, history, dirtyDigest };
}

/** The upstream commit pinned for a skill in `skills-lock.json`, by name; undefined when it is not vendored. */
export function pinnedCommits(repoDir: string): (name: string) => string | undefined {
  const vendored = readLock(repoDir).skills;
  return (name) => {
    const commit = Object.hasOwn(vendored, name) ? vendored[name]?.commit : undefined;
    return typeof commit === 'string' ? commit : undefined;
  };
}

/**
 * The versions of the vendored skills among `skills` (keyed by their folder, as given), as `publish`
 * names them. Skills of the library's own have no upstream to name and are left out; the ledger is opened
 * only when some skill is vendored.
 */
export async function readVendoredVersions(input: {
  repoDir: string;
  ledger: () => Promise<Ledger>;
  skills: readonly { name: string; dir: string }[];
}): Promise<Map<string, string>> {
  const pinned = pinnedCommits(input.repoDir);
  const versions = new Map<string, string>();
  for (const skill of input.skills) {
    const commit = pinned(skill.name);
    if (commit === undefined) continue;
    const files = readPublishedFiles(skill.dir);
    const relDir = relative(input.repoDir, skill.dir).split(sep).join('/');
    const { version } = await readSkillVersion({ repoDir: input.repoDir, ledger: await input.ledger(), relDir, files, pinned: commit });
    versions.set(skill.dir, version);
  }
  return versions;
}

/**
 * The commits that changed the skill's folder, newest first, by path (a
 * person's commits have no trailers, and count too).
 */
async function readSkillHistory(repoDir: string, relDir: string): Promise<SkillChange[]> {
  const text = await runGitChecked(repoDir, ['log', '--format=%H%x1f%cI%x1f%s%x1e', 'HEAD', '--', relDir]).catch((error: unknown) => {
    // A repository with no commit yet has no history, not a broken one.
    if (/does not have any commits|unknown revision/.test((error as Error).message)) return '';
    throw error;
  });
  return text
    .split('\x1e')
    .map((record) => record.trim())
    .filter(Boolean)
    .map((record) => {
      const [commit = '', time = '', subject = ''] = record.split('\x1f');
      return { commit, time, subject };
    });
}

/** True when the working copy of the skill differs from what HEAD holds (then its version is a -dev one). */
async function isDirty(ledger: Ledger, relDir: string, files: ReadonlyMap<string, Uint8Array>): Promise<boolean> {
  const committed = await ledger.listFiles(relDir);
  if (committed.length !== files.size) return true;
  return committed.some((file) => {
    const bytes = files.get(file.path.slice(relDir.length + 1));
    return bytes === undefined || blobId(bytes) !== file.oid;
  });
}
