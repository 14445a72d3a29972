import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { git, repoWith } from '../helpers/repo.js';
import { tempDir, writeTree } from '../helpers/tmp.js';

/** A public collection stand-in: a working clone to commit in and a bare `file://` repository it pushes to. */
export interface Upstream {
  work: string;
  bare: string;
  url: string;
  /** Commits these files (a `null` removes one) and pushes; returns the new tip. */
  publish(files: Record<string, string | null>, message?: string): string;
}

export function makeUpstream(files: Record<string, string>): Upstream {
  const work = repoWith(files);
  const bare = join(tempDir('skillgarden-upstream-'), 'origin.git');
  git(work, 'clone', '-q', '--bare', work, bare);
  git(work, 'remote', 'add', 'origin', bare);
  const url = `file://${bare}`;
  return {
    work,
    bare,
    url,
    publish(changes, message = 'upstream change') {
      for (const [path, content] of Object.entries(changes)) {
        if (content === null) rmSync(join(work, path), { force: true });
        else writeTree(work, { [path]: content });
      }
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', message);
      git(work, 'push', '-q', 'origin', 'HEAD:main');
      return git(work, 'rev-parse', 'HEAD').trim();
    },
  };
}
