/**
 * Validation throughput: the real corpus, then generated libraries of
 * growing size, to show how cost grows. Run: `npx tsx bench/validate.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runValidate } from '../src/services/validate.js';
import { generateLibrary } from './generate-library.js';

const corpus = join(import.meta.dirname, '..', '..', 'shared', 'corpus', 'skills');

function time<T>(fn: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = fn();
  return { result, ms: performance.now() - start };
}

function best(runs: number, fn: () => { skills: number }): { skills: number; ms: number } {
  let bestMs = Infinity;
  let skills = 0;
  for (let i = 0; i < runs; i++) {
    const { result, ms } = time(fn);
    skills = result.skills;
    bestMs = Math.min(bestMs, ms);
  }
  return { skills, ms: bestMs };
}

const rows: string[] = ['| library | skills | time (best of 3) | skills/s | µs per skill |', '|---|---:|---:|---:|---:|'];
const row = (label: string, skills: number, ms: number) =>
  rows.push(`| ${label} | ${skills.toLocaleString('en-US')} | ${ms.toFixed(0)} ms | ${Math.round((skills / ms) * 1000).toLocaleString('en-US')} | ${((ms * 1000) / skills).toFixed(0)} |`);

if (existsSync(corpus)) {
  const r = best(3, () => runValidate({ cwd: corpus, paths: ['.'], profile: 'spec' }));
  row('corpus (spec profile)', r.skills, r.ms);
}
for (const size of [1_000, 5_000, 10_000]) {
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-validate-'));
  try {
    generateLibrary(root, size);
    const r = best(3, () => runValidate({ cwd: root }));
    row(`generated ${size.toLocaleString('en-US')}`, r.skills, r.ms);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
console.log(rows.join('\n'));
