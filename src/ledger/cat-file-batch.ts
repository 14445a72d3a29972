import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { SkillgardenError } from '../core/errors.js';
import { spawnGit } from './system-git.js';

export interface RawObject {
  type: string;
  content: Buffer;
}

interface Pending {
  oid: string;
  resolve: (object: RawObject) => void;
  reject: (error: Error) => void;
}

/**
 * One long-lived `git cat-file --batch`: a spawn costs milliseconds, a read
 * through the open pipe microseconds. Replies come back in request order.
 */
export class CatFileBatch {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];

  constructor(private readonly gitdir: string) {}

  read(oid: string): Promise<RawObject> {
    return new Promise((resolve, reject) => {
      this.queue.push({ oid, resolve, reject });
      this.start().stdin.write(`${oid}\n`);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    await new Promise<void>((done) => {
      child.once('close', () => done());
      child.stdin.end();
    });
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.child) return this.child;
    const child = spawnGit(['--git-dir', this.gitdir, 'cat-file', '--batch'], { cwd: this.gitdir });
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.drain();
    });
    child.on('error', (error) => this.failAll(error));
    child.on('close', () => {
      if (this.child === child) this.child = undefined;
      this.failAll(new Error('git cat-file exited'));
    });
    this.child = child;
    return child;
  }

  private drain(): void {
    for (;;) {
      const pending = this.queue[0];
      const newline = this.buffer.indexOf(10);
      if (!pending || newline < 0) return;
      const header = this.buffer.toString('utf8', 0, newline).split(' ');
      if (header[1] === 'missing' || header.length < 3) {
        this.queue.shift();
        this.buffer = this.buffer.subarray(newline + 1);
        pending.reject(
          new SkillgardenError('ledger/missing-object', `Git object ${pending.oid} is not in the repository.`, {
            data: { oid: pending.oid },
          }),
        );
        continue;
      }
      const size = Number(header[2]);
      if (this.buffer.length < newline + 1 + size + 1) return;
      const content = Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size));
      this.buffer = this.buffer.subarray(newline + 1 + size + 1);
      this.queue.shift();
      pending.resolve({ type: header[1] ?? '', content });
    }
  }

  private failAll(error: Error): void {
    for (const pending of this.queue.splice(0)) pending.reject(error);
  }
}
