import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildCommitMessage, type LedgerTrailers } from '../../src/core/ledger/trailers.js';

const start = Date.parse('2026-01-01T00:00:00Z') / 1000;

/** A real repository under the temp folder, made with plain git and fixed dates, one hour apart. */
export class HistoryRepo {
  readonly dir = mkdtempSync(join(tmpdir(), 'sg-history-'));
  private tick = 0;
  private readonly env: NodeJS.ProcessEnv;

  constructor(template?: HistoryRepo) {
    this.env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    if (template) {
      // Copying a built repository is much cheaper than replaying its commits.
      cpSync(template.dir, this.dir, { recursive: true });
      this.tick = template.tick;
      return;
    }
    this.git('init', '-q', '-b', 'main');
    this.git('config', 'user.name', 'Test');
    this.git('config', 'user.email', 'test@example.com');
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: this.env, encoding: 'utf8' });
  }

  write(path: string, content = `${path}\n`): this {
    mkdirSync(dirname(join(this.dir, path)), { recursive: true });
    writeFileSync(join(this.dir, path), content);
    return this;
  }

  remove(path: string): this {
    rmSync(join(this.dir, path), { recursive: true });
    return this;
  }

  /** Commits everything with this message; returns the commit id. Its time is `timeOf(n)` for the n-th commit. */
  commit(message: string): string {
    const seconds = start + 3600 * this.tick++;
    const date = `@${seconds} +0000`;
    this.git('add', '-A');
    execFileSync('git', ['commit', '-q', '--allow-empty', '--cleanup=verbatim', '-F', '-'], {
      cwd: this.dir,
      input: message,
      env: { ...this.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return this.git('rev-parse', 'HEAD').trim();
  }

  /** A ledger commit, its message built with the shared builder. */
  ledger(subject: string, trailers: Partial<LedgerTrailers>): string {
    return this.commit(buildCommitMessage({ subject, trailers: { skills: [], actor: 'user', reverts: [], ...trailers } }));
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The time of the n-th commit (0-based), as the index writes it. */
export function timeOf(n: number): string {
  return new Date((start + 3600 * n) * 1000).toISOString().replace('.000Z', 'Z');
}

export const skill = (name: string, body = 'Steps.'): string => `---\nname: ${name}\ndescription: ${name} skill\n---\n${body}\n`;
