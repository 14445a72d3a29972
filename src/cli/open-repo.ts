import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { actors, sources, type Actor } from '../core/ledger/trailers.js';
import type { LedgerBackend, Ledger } from '../services/ledger.js';
import type { Config } from '../core/config/config.js';
import { requireConfig } from '../services/config-file.js';
import type { ManageContext } from '../services/manage/index.js';
import type { CliIo, CommandContext, OptionSpec } from './context.js';
import { readPrimaryRoot } from '../services/library.js';

/** Options every writing command shares (DESIGN §12). */
export const writerOptions: Record<string, OptionSpec> = {
  actor: { type: 'string' },
  source: { type: 'string' },
  message: { type: 'string' },
};

const backends: readonly LedgerBackend[] = ['isomorphic-git', 'system-git'];

/** The ledger of `--repo`, on the backend named by SKILLGARDEN_BACKEND (default auto: the system git when on the PATH), with `--now` as its clock. */
export async function openRepoLedger(context: CommandContext): Promise<Ledger> {
  const chosen = context.io.env.SKILLGARDEN_BACKEND ?? 'auto';
  if (!(backends as readonly string[]).includes(chosen) && chosen !== 'auto') {
    throw new SkillgardenError('cli/usage', `SKILLGARDEN_BACKEND="${chosen}" is not one of: ${backends.join(', ')}, auto`);
  }
  const now = context.global.now;
  // Imported when a command writes: the git backends (isomorphic-git, pako, simple-git: 0.75 MB) are most of the
  // code a read-only command would otherwise load at start.
  const { openLedger } = await import('../services/ledger.js');
  return openLedger(context.global.repo, { backend: chosen as LedgerBackend | 'auto', now: () => now });
}

/**
 * `.skillgarden/config.yaml` of `--repo` (defaults when absent). A bad value
 * of a key in `needs` is an error naming the key; a bad value elsewhere is a
 * warning on stderr, so reading skills (reminder, load, list) goes on when,
 * say, the `scan:` policy has a typo. Without `needs`, every key is needed.
 */
export function repoConfig(context: CommandContext, needs?: readonly (keyof Config)[]): Config {
  const warn = (m: string) => {
    // One command reads the config more than once: say it once.
    if (warned.has(context)) return;
    warned.add(context);
    context.io.stderr.write(m);
  };
  return requireConfig(context.global.repo, { ...(needs ? { needs } : {}), warn });
}

const warned = new WeakSet<CommandContext>();

export async function openManageContext(context: CommandContext, defaults: { actor?: Actor } = {}): Promise<ManageContext> {
  const actor = pick('actor', context.values.actor, actors, defaults.actor ?? 'user');
  const source = pick('source', context.values.source, sources, 'foreground');
  const message = typeof context.values.message === 'string' ? context.values.message : undefined;
  // The write gate reads `scan:` itself, and refuses the writes that need a bad policy.
  const config = repoConfig(context, ['skills_dir', 'profile']);
  return {
    repoDir: context.global.repo,
    ledger: await openRepoLedger(context),
    skillsDir: readPrimaryRoot(context.global.repo, config.skills_dir),
    roots: config.skills_dir ?? null,
    profile: config.profile,
    actor,
    ...(actor === 'agent' ? { source } : {}),
    ...(message ? { message } : {}),
  };
}

function pick<T extends string>(option: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new SkillgardenError('cli/usage', `--${option} ${JSON.stringify(value)} is not one of: ${allowed.join(', ')}`);
}

/** Reads `--content FILE`, where `-` is standard input. */
export async function readContent(io: CliIo, file: unknown, what: string): Promise<string> {
  if (typeof file !== 'string') throw new SkillgardenError('cli/usage', `${what} needs --content FILE (or - for standard input)`);
  if (file === '-') {
    if (!io.stdin) throw new SkillgardenError('cli/usage', 'no standard input to read --content - from');
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new SkillgardenError('cli/usage', `cannot read --content ${file}: ${(error as Error).message}`, { cause: error });
  }
}
