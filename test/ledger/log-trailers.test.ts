import { afterAll, describe, expect, it } from 'vitest';
import { parseTrailers } from '../../src/core/ledger/trailers.js';
import { messages } from '../core/ledger/trailer-messages.js';
import { renderLikeGit } from '../core/ledger/git-trailers.js';
import { HistoryRepo } from './history-repo.js';

// git keeps a commit message as given with --cleanup=verbatim, but cannot store an empty one.
const committable = Object.entries(messages).filter(([, m]) => m.trim() !== '');

describe('parseTrailers({ divider: false }) reads commits as git log --format=%(trailers) does', () => {
  const repo = new HistoryRepo();
  afterAll(() => repo.cleanup());
  const commits = committable.map(([name, message]) => ({ name, message, oid: repo.commit(message) }));
  // -z: "<oid>\0<trailers>" records, NUL-separated, so the tokens alternate.
  const tokens = repo.git('log', '-z', '--format=%H%x00%(trailers:only,unfold)').split('\0');
  const shown = new Map(tokens.flatMap((token, i) => (i % 2 === 0 && token !== '' ? [[token, tokens[i + 1] ?? ''] as const] : [])));

  it.each(commits)('$name', ({ message, oid }) => {
    expect(renderLikeGit(parseTrailers(message, { divider: false }))).toBe(shown.get(oid));
  });
});
