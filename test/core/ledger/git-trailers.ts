import { execFileSync } from 'node:child_process';
import type { Trailer } from '../../../src/core/ledger/trailers.js';

// A clean config so a developer's trailer.* settings cannot change git's answer.
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/**
 * What the real `git interpret-trailers --parse` prints for a message. git 2.39 loops forever on a
 * scissors line after a `---` divider, hence the timeout (and the generator avoids that input).
 */
export function gitParse(message: string, options: { divider?: boolean } = {}): string {
  const args = ['interpret-trailers', '--parse', ...(options.divider === false ? ['--no-divider'] : [])];
  return execFileSync('git', args, { input: message, env, encoding: 'utf8', timeout: 10_000 });
}

/** Our trailers printed the way `--parse` prints them. */
export function renderLikeGit(trailers: readonly Trailer[]): string {
  return trailers.map((t) => `${t.key}: ${t.value}\n`).join('');
}
