/**
 * Validation throughput: the real corpus, then generated libraries of
 * growing size, to show how cost grows. Run: `npx tsx bench/validate.ts`.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli/main.js';
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
  rows.push(
    `| ${label} | ${skills.toLocaleString('en-US')} | ${ms.toFixed(0)} ms | ${Math.round((skills / ms) * 1000).toLocaleString('en-US')} | ${((ms * 1000) / skills).toFixed(0)} |`,
  );

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

// What the security scan adds to `skillgarden validate` (the CLI runs both over shared folder listings).
const sink = { write: () => true };
const cliMs = async (cwd: string, args: string[]) => {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    await runCli(['validate', '--json', ...args], { stdout: sink, stderr: sink, env: {}, cwd, interactive: false });
    best = Math.min(best, performance.now() - start);
  }
  return best;
};
const scanRows = ['', '| library | validate --no-scan | validate (with the scan) | the scan adds |', '|---|---:|---:|---:|'];
const scanRow = async (label: string, cwd: string, paths: string[]) => {
  const without = await cliMs(cwd, [...paths, '--no-scan']);
  const withScan = await cliMs(cwd, paths);
  scanRows.push(
    `| ${label} | ${without.toFixed(0)} ms | ${withScan.toFixed(0)} ms | ${(((withScan - without) / without) * 100).toFixed(0)} % |`,
  );
};
if (existsSync(corpus)) await scanRow('corpus', corpus, ['.']);
for (const size of [1_000, 10_000]) {
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-validate-'));
  try {
    generateLibrary(root, size);
    await scanRow(`generated ${size.toLocaleString('en-US')}`, root, []);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
console.log(scanRows.join('\n'));
