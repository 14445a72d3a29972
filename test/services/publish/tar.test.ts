import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTarGz } from '../../../src/services/publish/tar.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const longPath = `${'deep/'.repeat(30)}a-file-whose-path-is-longer-than-a-ustar-name.md`;
const files = [
  { path: 'scripts/run.sh', bytes: Buffer.from('#!/bin/sh\necho hi\n'), executable: true },
  { path: 'SKILL.md', bytes: Buffer.from('---\nname: kit\n---\n') },
  { path: longPath, bytes: Buffer.from('long\n') },
  { path: 'références/café.md', bytes: Buffer.from('é\n') },
];

describe('buildTarGz', () => {
  it('writes what the system tar reads back: sorted entries, no times, no owners, modes kept, long and non-ASCII paths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-tar-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'kit.tar.gz'), buildTarGz(files));
    const listing = execFileSync('tar', ['-tvzf', join(dir, 'kit.tar.gz'), '--numeric-owner'], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    })
      .trim()
      .split('\n');
    expect(listing.map((line) => line.split(/\s+/).slice(5).join(' '))).toEqual([...files.map((f) => f.path)].sort());
    for (const line of listing) expect(line).toMatch(/^-rw[x-]r-[x-]r-[x-] 0\/0 .* 1970-01-01 00:00 /);
    execFileSync('tar', ['-xzf', join(dir, 'kit.tar.gz'), '-C', dir]);
    for (const file of files) expect(readFileSync(join(dir, file.path))).toEqual(file.bytes);
    expect(statSync(join(dir, 'scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'SKILL.md')).mode & 0o777).toBe(0o644);
  });

  it('gives the same bytes for the same files in any order', () => {
    expect(buildTarGz([...files].reverse()).equals(buildTarGz(files))).toBe(true);
    expect(buildTarGz(files).equals(buildTarGz([{ ...files[0]!, bytes: Buffer.from('changed') }, ...files.slice(1)]))).toBe(false);
  });
});
