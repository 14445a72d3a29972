import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { SkillgardenError } from '../core/errors.js';

/** Where a repository keeps its git data: `.git/`, or the folder a `.git` file points to. */
export async function readGitDir(dir: string): Promise<string> {
  const dotGit = join(dir, '.git');
  const info = await stat(dotGit).catch(() => undefined);
  if (info?.isDirectory()) return dotGit;
  if (info?.isFile()) {
    const text = await readFile(dotGit, 'utf8');
    const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
    if (match?.[1]) return isAbsolute(match[1]) ? match[1] : resolve(dir, match[1]);
  }
  throw new SkillgardenError('ledger/not-a-repository', `${dir} is not a git repository (no .git folder).`, {
    data: { dir, hint: `Run \`git init\` in ${dir}, or pass the repository's root folder.` },
  });
}
