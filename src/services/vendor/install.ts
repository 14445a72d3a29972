import { chmodSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { lockFileName, requirePinned, type PinnedEntry } from '../../core/vendor/index.js';
import { openLibrary, readPrimaryRoot } from '../../store/layout/discover-library.js';
import { replaceFolders } from '../../store/files.js';
import { listRegularFiles } from '../../store/regular-files.js';
import { computeDigest } from '../../core/vendor/index.js';
import { hasCommit, openUpstream, redactUrl, type Upstream, type UpstreamFile } from './upstream.js';
import { readLock, readVendoredFolder } from './vendored-skill.js';

export interface InstallOptions {
  /** The library's `skills_dir` setting (`undefined`: detected). */
  skillsDir: string | readonly string[] | undefined;
}

export interface InstallResult {
  /** Folders put back from the pinned commit. */
  restored: { name: string; dir: string }[];
  /** Folders already as the lock says. */
  verified: string[];
}

interface Planned {
  name: string;
  dir: string;
  files: UpstreamFile[];
  matches: boolean;
}

/**
 * `install --frozen`: every vendored skill as the lock pins it. The pinned content is fetched and its digest
 * checked for every skill before any folder is written; a missing or changed folder is then put back whole.
 */
export async function installFrozen(repoDir: string, options: InstallOptions): Promise<InstallResult> {
  const lock = readLock(repoDir);
  const names = Object.keys(lock.skills).sort();
  if (names.length === 0) {
    throw new SkillgardenError('vendor/no-lock', `${lockFileName} pins no skills here; \`skillgarden add SOURCE\` vendors some.`, {
      data: { exitCode: 2 },
    });
  }
  const library = openLibrary(repoDir, options.skillsDir);
  const root = readPrimaryRoot(repoDir, options.skillsDir);
  const planned: Planned[] = [];
  for (const [key, group] of groupBySource(names.map((name) => [name, requirePinned(name, lock.skills[name]!)] as const))) {
    const upstream = await openUpstream(group[0]![1].sourceUrl, group[0]![1].ref);
    try {
      for (const [name, entry] of group) {
        const dir = library.skills.find((s) => s.name === name)?.path ?? (root === '' ? name : `${root}/${name}`);
        await requireCommit(upstream, name, entry);
        const folder = await readVendoredFolder(upstream, entry.commit, name, entry.skillPath);
        if (folder.digest !== entry.computedHash) {
          throw new SkillgardenError(
            'vendor/digest-mismatch',
            `skill "${name}": ${lockFileName} says sha256 ${entry.computedHash}, but ${entry.skillPath}/ at ${entry.commit.slice(0, 12)} of ${key} hashes to ${folder.digest}. Nothing was written. Check the lock (or the source) before trusting either.`,
            { data: { skill: name, expected: entry.computedHash, actual: folder.digest, exitCode: 1 } },
          );
        }
        const matches = digestOnDisk(repoDir, dir) === entry.computedHash && linksOnDisk(repoDir, dir, folder.files);
        planned.push({ name, dir, files: folder.files, matches });
      }
    } finally {
      upstream.close();
    }
  }
  const restore = planned.filter((p) => !p.matches);
  const bytes = new Map(restore.flatMap((p) => p.files.filter((f) => !f.symlink).map((f) => [`${p.dir}/${f.path}`, f.bytes] as const)));
  replaceFolders(
    repoDir,
    bytes,
    restore.map((p) => p.dir),
  );
  for (const p of restore) {
    for (const f of p.files.filter((f) => f.executable)) chmodSync(join(repoDir, p.dir, f.path), 0o755);
    // Links stay links, as git checks them out (readVendoredFolder refused any that leads out of the skill).
    for (const f of p.files.filter((f) => f.symlink)) {
      const path = join(repoDir, p.dir, f.path);
      mkdirSync(dirname(path), { recursive: true });
      symlinkSync(Buffer.from(f.bytes).toString('utf8'), path);
    }
  }
  return { restored: restore.map((p) => ({ name: p.name, dir: p.dir })), verified: planned.filter((p) => p.matches).map((p) => p.name) };
}

/** A pinned commit the source no longer has: its history was rewritten. */
export async function requireCommit(upstream: Upstream, name: string, entry: PinnedEntry): Promise<void> {
  if (await hasCommit(upstream, entry.commit)) return;
  throw new SkillgardenError(
    'vendor/commit-gone',
    `skill "${name}": the pinned commit ${entry.commit.slice(0, 12)} is no longer in ${redactUrl(entry.sourceUrl)} (${entry.ref ?? 'HEAD'}): its history was rewritten. Nothing was written. Its tip is now ${upstream.tip.slice(0, 12)}; review it, then \`skillgarden update ${name}\` moves the pin there.`,
    { data: { skill: name, commit: entry.commit, tip: upstream.tip, exitCode: 2 } },
  );
}

/** Entries fetched together: same URL, same ref. */
export function groupBySource<T extends PinnedEntry>(entries: readonly (readonly [string, T])[]): Map<string, (readonly [string, T])[]> {
  const groups = new Map<string, (readonly [string, T])[]>();
  for (const pair of entries) {
    const key = `${redactUrl(pair[1].sourceUrl)}${pair[1].ref ? `@${pair[1].ref}` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), pair]);
  }
  return groups;
}

/** The pinned links are on disk, each to its pinned target (the digest leaves links out). */
function linksOnDisk(repoDir: string, dir: string, files: readonly UpstreamFile[]): boolean {
  return files
    .filter((f) => f.symlink)
    .every((f) => {
      try {
        return readlinkSync(join(repoDir, dir, f.path)) === Buffer.from(f.bytes).toString('utf8');
      } catch {
        return false;
      }
    });
}

function digestOnDisk(repoDir: string, dir: string): string | undefined {
  const walked = listRegularFiles(join(repoDir, dir), { maxFiles: 10_000, maxDepth: 32 });
  if (walked.files.size === 0) return undefined;
  return computeDigest([...walked.files.keys()].map((path) => ({ path, bytes: readFileSync(join(repoDir, dir, path)) })));
}
