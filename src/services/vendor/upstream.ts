import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { runGit } from '../git.js';

/** A source fetched into a scratch repository: the ref's tip and its history, nothing else. */
export interface Upstream {
  dir: string;
  url: string;
  tip: string;
  close(): void;
}

/** One file of a skill folder at a source commit. */
export interface UpstreamFile {
  /** Relative to the skill folder. */
  path: string;
  bytes: Uint8Array;
  executable: boolean;
  /** A symbolic link: `bytes` is its target. */
  symlink: boolean;
}

// Long enough for a large repository over a slow link; git's own timeouts and credentials apply inside it.
const fetchTimeoutMs = 10 * 60 * 1000;

/** Fetches `ref` (default: the source's HEAD) with its history; unreachable sources and unknown refs are errors naming them. */
export async function openUpstream(url: string, ref: string | undefined): Promise<Upstream> {
  const dir = mkdtempSync(join(tmpdir(), 'skillgarden-upstream-'));
  const close = () => rmSync(dir, { recursive: true, force: true });
  try {
    await git(dir, ['init', '-q']);
    const fetched = await runGit(['fetch', '-q', '--no-tags', '--', url, ref ?? 'HEAD'], { cwd: dir, timeoutMs: fetchTimeoutMs });
    if (fetched.code !== 0) throw fetchError(url, ref, fetched.stderr);
    const tip = (await git(dir, ['rev-parse', '--verify', 'FETCH_HEAD^{commit}'])).trim();
    return { dir, url, tip, close };
  } catch (error) {
    close();
    throw error;
  }
}

/** Checks `commit` out in the scratch repository, so the one discovery can read its layout. */
export async function checkoutUpstream(upstream: Upstream, commit: string): Promise<void> {
  await git(upstream.dir, ['-c', 'core.symlinks=true', 'checkout', '-q', '--detach', commit]);
}

export async function hasCommit(upstream: Upstream, commit: string): Promise<boolean> {
  return (await runGit(['cat-file', '-e', `${commit}^{commit}`], { cwd: upstream.dir })).code === 0;
}

/** The files of `path` at `commit` (empty when the folder is not there). */
export async function readUpstreamFiles(upstream: Upstream, commit: string, path: string): Promise<UpstreamFile[]> {
  const listing = await git(upstream.dir, ['ls-tree', '-r', '-z', '--full-tree', commit, '--', `${path}/`]);
  const files: UpstreamFile[] = [];
  for (const line of listing.split('\0').filter(Boolean)) {
    const match = /^(\d+) (\w+) ([0-9a-f]+)\t(.*)$/s.exec(line);
    if (!match || match[2] !== 'blob') continue;
    const [, mode, , oid, full] = match as unknown as [string, string, string, string, string];
    const bytes = (await runGit(['cat-file', 'blob', oid], { cwd: upstream.dir })).stdout;
    files.push({ path: posix.relative(path, full), bytes, executable: mode === '100755', symlink: mode === '120000' });
  }
  return files;
}

/** The upstream commits between two that touched `path`, newest first, one line each. */
export async function logTouching(upstream: Upstream, from: string, to: string, path: string): Promise<string[]> {
  const out = await git(upstream.dir, ['log', '--format=%h %s', `${from}..${to}`, '--', `${path}/`]);
  return out.split('\n').filter(Boolean);
}

export interface TextMerge {
  bytes: Buffer;
  /** The merged file's lines where a conflict starts (1-based). */
  conflictLines: number[];
}

/** `git merge-file`: ours (the library), base (the pinned upstream), theirs (the new upstream). */
export async function mergeText(upstream: Upstream, sides: { ours: Uint8Array; base: Uint8Array; theirs: Uint8Array }): Promise<TextMerge> {
  const paths = (['ours', 'base', 'theirs'] as const).map((side) => {
    const path = join(upstream.dir, `.git/merge-${side}`);
    writeFileSync(path, sides[side]);
    return path;
  });
  const labels = ['-L', 'library', '-L', 'pinned', '-L', 'upstream'];
  const result = await runGit(['merge-file', '-p', ...labels, ...paths], { cwd: upstream.dir });
  if (result.code < 0 || result.code > 127) throw gitFailed('merge-file', result.stderr);
  const conflictLines = result.stdout
    .toString('utf8')
    .split('\n')
    .flatMap((line, index) => (line.startsWith('<<<<<<< ') ? [index + 1] : []));
  return { bytes: result.stdout, conflictLines };
}

/** A URL with its user and password taken out: what messages show. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

async function git(cwd: string, args: string[]): Promise<string> {
  const result = await runGit(args, { cwd });
  if (result.code !== 0) throw gitFailed(args[0] ?? 'git', result.stderr);
  return result.stdout.toString('utf8');
}

function gitFailed(command: string, stderr: string): SkillgardenError {
  return new SkillgardenError('vendor/git-failed', `git ${command} failed: ${stderr.trim()}`, { data: { exitCode: 2 } });
}

function fetchError(url: string, ref: string | undefined, stderr: string): SkillgardenError {
  const shown = redactUrl(url);
  const said = stderr.replace(/[a-z][a-z0-9+.-]*:\/\/[^/@\s]*@/gi, (m) => m.replace(/\/\/.*@/, '//')).trim();
  if (ref !== undefined && /couldn't find remote ref/i.test(stderr)) {
    return new SkillgardenError(
      'vendor/unknown-ref',
      `${shown} has no branch or tag "${ref}" (nothing was written). Name an existing one with --ref.`,
      {
        data: { source: shown, ref, exitCode: 2 },
      },
    );
  }
  return new SkillgardenError(
    'vendor/unreachable',
    `could not fetch ${shown} (nothing was written): ${said}\nCheck the address and that your git can reach it (credentials and proxies are git's own).`,
    { data: { source: shown, exitCode: 2 } },
  );
}
