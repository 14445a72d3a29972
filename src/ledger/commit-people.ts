import { SkillgardenError } from '../core/errors.js';
import type { CommitContext } from './commit-context.js';
import type { Author } from './ledger.js';
import { formatTimezone } from './object-store.js';
import { readHeadState } from './refs.js';
import type { RefDirs } from './refs.js';

export async function readBranch(dirs: RefDirs): Promise<string> {
  const head = await readHeadState(dirs);
  if (head.kind === 'branch') return head.ref;
  throw new SkillgardenError(
    'ledger/detached-head',
    `HEAD is detached at ${head.oid.slice(0, 12)}; a ledger commit needs a branch. Run \`git switch -c <branch>\` (or \`git switch <branch>\`) and retry.`,
    { data: { oid: head.oid } },
  );
}

/**
 * A commit's author: the one given, else who git says; its committer is
 * always who git says (who ran it). Dates: the given one, else
 * `GIT_AUTHOR_DATE` / `GIT_COMMITTER_DATE`, else the ledger's clock.
 */
export async function resolvePeople(
  ctx: CommitContext,
  given: Author | undefined,
): Promise<{ author: Required<Author>; committer: Required<Author> }> {
  const who = await ctx.identities();
  const now = { timestamp: Math.floor(ctx.now().getTime() / 1000), timezoneOffset: 0 };
  const givenDate = given?.timestamp === undefined ? undefined : { timestamp: given.timestamp, timezoneOffset: given.timezoneOffset ?? 0 };
  const author = given ?? who.author;
  const authorDate = givenDate ?? who.author.date ?? now;
  return {
    author: { name: author.name, email: author.email, ...authorDate },
    committer: { name: who.committer.name, email: who.committer.email, ...(givenDate ?? who.committer.date ?? now) },
  };
}

export function identity(author: Required<Author>): string {
  return `${author.name} <${author.email}> ${author.timestamp} ${formatTimezone(author.timezoneOffset)}`;
}
