import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { tempDir, writeTree } from './tmp.js';

const gitEnv = {
  GIT_AUTHOR_DATE: '1780000000 +0000',
  GIT_COMMITTER_DATE: '1780000000 +0000',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
};

export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, env: { ...process.env, ...gitEnv }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A temporary repository on `main` whose first commit (made by a person with plain git) holds `files`. */
export function repoWith(files: Record<string, string | Uint8Array>): string {
  const dir = tempDir('skillgarden-repo-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ada Test');
  git(dir, 'config', 'user.email', 'ada@example.com');
  git(dir, 'config', 'gc.auto', '0');
  if (Object.keys(files).length > 0) {
    writeTree(dir, files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial library');
  }
  return dir;
}

/** `git log` subjects, newest first. */
export function subjects(dir: string): string[] {
  return git(dir, 'log', '--format=%s').trim().split('\n');
}

/** The trailers of the last commit, as `git interpret-trailers --parse` reads them. */
export function lastTrailers(dir: string): string[] {
  return git(dir, 'log', '-1', '--format=%(trailers:only,unfold)').trim().split('\n').filter(Boolean);
}

export function status(dir: string): string {
  return git(dir, 'status', '--porcelain');
}

/** Whether git itself accepts `branch` as a branch name (`git check-ref-format --branch`). */
export function checkRefFormat(branch: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', '--branch', branch], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
