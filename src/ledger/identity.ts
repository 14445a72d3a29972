import { SkillgardenError } from '../core/errors.js';
import type { GitConfig } from './git-config.js';
import type { Author } from './ledger.js';
import { runGit } from './system-git.js';

/** Who a commit is by: git's author and committer, resolved separately, as `git commit` does. */
export interface Identities {
  author: Pick<Author, 'name' | 'email'> & { date?: GitDate };
  committer: Pick<Author, 'name' | 'email'> & { date?: GitDate };
}

/** A date fixed by `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`; otherwise the ledger's clock decides. */
export interface GitDate {
  timestamp: number;
  timezoneOffset: number;
}

/**
 * The fallback for headless agents with no git identity anywhere: used only
 * when git (or, without git, the configuration the embedded backend reads)
 * finds none. Git's own `GIT_AUTHOR_NAME` & co. still win over everything.
 */
export const fallbackNameVariable = 'SKILLGARDEN_AUTHOR_NAME';
export const fallbackEmailVariable = 'SKILLGARDEN_AUTHOR_EMAIL';

/** Asks git (`git var GIT_AUTHOR_IDENT` / `GIT_COMMITTER_IDENT`): environment, every config layer, `user.useConfigOnly`. */
export async function readSystemIdentities(dir: string): Promise<Identities> {
  const ask = async (extra: string[]) => {
    const [author, committer] = await Promise.all(
      ['GIT_AUTHOR_IDENT', 'GIT_COMMITTER_IDENT'].map((v) => runGit([...extra, 'var', v], { cwd: dir })),
    );
    return { author: author!, committer: committer! };
  };
  let result = await ask([]);
  const fallback = fallbackIdentity();
  if ((result.author.code !== 0 || result.committer.code !== 0) && fallback) {
    result = await ask(['-c', `user.name=${fallback.name}`, '-c', `user.email=${fallback.email}`]);
  }
  for (const [role, run] of Object.entries(result)) {
    if (run.code !== 0) throw noIdentity(dir, role, run.stderr.trim().split('\n').at(-1) ?? '');
  }
  return {
    author: parseIdent(result.author.stdout.toString('utf8').trim(), process.env.GIT_AUTHOR_DATE !== undefined),
    committer: parseIdent(result.committer.stdout.toString('utf8').trim(), process.env.GIT_COMMITTER_DATE !== undefined),
  };
}

function parseIdent(text: string, keepDate: boolean): Identities['author'] {
  const match = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(text);
  if (!match) return { name: text, email: '' };
  const minutes = Number(match[5]) * 60 + Number(match[6]);
  const date = { timestamp: Number(match[3]), timezoneOffset: match[4] === '+' ? -minutes : minutes };
  return { name: match[1] ?? '', email: match[2] ?? '', ...(keepDate ? { date } : {}) };
}

/**
 * The same rules without git (git-commit(1) "COMMIT INFORMATION"):
 * `GIT_AUTHOR_*` / `GIT_COMMITTER_*`, then `author.*` / `committer.*`, then
 * `user.*`, then `EMAIL` for the address. Git would go on to guess from the
 * account and host name; the embedded backend refuses instead of guessing.
 */
export function readEmbeddedIdentities(config: GitConfig, dir: string): Identities {
  const env = process.env;
  const fallback = fallbackIdentity();
  const pick = (role: 'author' | 'committer') => {
    const upper = role.toUpperCase();
    const name = env[`GIT_${upper}_NAME`] ?? config.get(`${role}.name`) ?? config.get('user.name') ?? fallback?.name;
    const email = env[`GIT_${upper}_EMAIL`] ?? config.get(`${role}.email`) ?? config.get('user.email') ?? env.EMAIL ?? fallback?.email;
    if (!name || !email) throw noIdentity(dir, role, `no ${name ? 'email' : 'name'} in the environment or any configuration file`);
    const dateText = env[`GIT_${upper}_DATE`];
    return { name, email, ...(dateText !== undefined ? { date: parseGitDate(dateText, `GIT_${upper}_DATE`) } : {}) };
  };
  return { author: pick('author'), committer: pick('committer') };
}

function fallbackIdentity(): { name: string; email: string } | undefined {
  const name = process.env[fallbackNameVariable];
  const email = process.env[fallbackEmailVariable];
  return name && email ? { name, email } : undefined;
}

/** Git's internal `<seconds> <+hhmm>` (optionally `@`-prefixed) and ISO 8601; anything else only git can read. */
export function parseGitDate(text: string, variable: string): GitDate {
  const raw = /^@?(\d+)(?:\s+([+-])(\d\d):?(\d\d))?$/.exec(text.trim());
  if (raw) {
    const minutes = Number(raw[3] ?? 0) * 60 + Number(raw[4] ?? 0);
    return { timestamp: Number(raw[1]), timezoneOffset: raw[2] === '-' ? minutes : -minutes };
  }
  const iso = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?(\.\d+)?\s*(Z|[+-]\d\d:?\d\d)?$/.exec(text.trim());
  const ms = iso
    ? Date.parse(
        text
          .trim()
          .replace(' ', 'T')
          .replace(/([+-]\d\d)(\d\d)$/, '$1:$2'),
      )
    : NaN;
  if (Number.isNaN(ms)) {
    throw new SkillgardenError(
      'ledger/unsupported-repo',
      `${variable}="${text.slice(0, 60)}" is in a date format only git can read. Use "<seconds since the epoch> +0000" or ISO 8601, or install git.`,
      { data: { variable } },
    );
  }
  const zone = iso?.[3];
  const offset = !zone || zone === 'Z' ? 0 : -(Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * (zone.startsWith('-') ? -1 : 1);
  return { timestamp: Math.floor(ms / 1000), timezoneOffset: offset };
}

function noIdentity(dir: string, role: string, reason: string): SkillgardenError {
  return new SkillgardenError(
    'ledger/no-identity',
    `No git identity for the ${role} of a commit in ${dir}: ${reason}. Tell git who you are (\`git config --global user.name "Your Name"\` and \`git config --global user.email you@example.com\`), or, for a headless agent, set ${fallbackNameVariable} and ${fallbackEmailVariable}.`,
    { data: { dir, role } },
  );
}
