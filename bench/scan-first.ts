/**
 * The scan's first run in a fresh process (issue 16 point 7, issue 18 goal 2):
 * what a CLI user pays on a cold `validate` or `scan`, where the JIT has not
 * warmed up yet. Each run is a new process that reads the corpus into memory,
 * then times `scanSkillText` over it: the first pass (also by tenths of the
 * files, since the excess is front-loaded), then the best of 6 more passes.
 * CPU time (`process.cpuUsage`) is the figure to trust on a shared machine.
 * Run: npx tsx bench/scan-first.ts [runs, default 5]
 * One child alone: npx tsx bench/scan-first.ts --child
 * Another build: SCAN_LIB=/path/to/lib/core/scan/match.js npx tsx bench/scan-first.ts
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { scanSkillText as ScanSkillText } from '../src/core/scan/match.js';

const corpus = fileURLToPath(new URL('../../shared/corpus/skills', import.meta.url));

function readCorpus(): string[] {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(corpus);
  return texts;
}

const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface ChildResult {
  files: number;
  mb: number;
  firstMs: number;
  tenthsMs: number[];
  bestMs: number;
  findings: number;
}

async function child(): Promise<void> {
  // SCAN_LIB: a built lib/core/scan/match.js to time instead (a "before" build, for interleaved runs).
  const { scanSkillText } = (await import(process.env.SCAN_LIB ?? '../src/core/scan/match.js')) as { scanSkillText: typeof ScanSkillText };
  const texts = readCorpus();
  const mb = texts.reduce((n, t) => n + Buffer.byteLength(t), 0) / 1e6;
  const tenth = Math.ceil(texts.length / 10);
  const tenthsMs: number[] = [];
  let findings = 0;
  const start = cpuNow();
  for (let k = 0; k < 10; k += 1) {
    const t0 = cpuNow();
    for (const text of texts.slice(k * tenth, (k + 1) * tenth)) findings += scanSkillText(text, { file: 'SKILL.md' }).length;
    tenthsMs.push(cpuNow() - t0);
  }
  const firstMs = cpuNow() - start;
  let bestMs = Infinity;
  for (let r = 0; r < 6; r += 1) {
    const t0 = cpuNow();
    for (const text of texts) scanSkillText(text, { file: 'SKILL.md' });
    bestMs = Math.min(bestMs, cpuNow() - t0);
  }
  const result: ChildResult = { files: texts.length, mb, firstMs, tenthsMs, bestMs, findings };
  console.log(JSON.stringify(result));
}

function parent(runs: number): void {
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`node ${process.version}, load average ${load()}`);
  console.log('| run | first ms (CPU) | first MB/s | first tenth ms | tenths 2–4 ms | best of 6 ms | best MB/s | findings |');
  console.log('|---|---|---|---|---|---|---|---|');
  const script = fileURLToPath(import.meta.url);
  for (let r = 0; r < runs; r += 1) {
    const out = spawnSync(process.execPath, [...process.execArgv, script, '--child'], { encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`bench child failed: ${out.stderr}`);
    const m = JSON.parse(out.stdout.trim().split('\n').pop()!) as ChildResult;
    const mid = m.tenthsMs.slice(1, 4).map((t) => t.toFixed(0));
    console.log(
      `| ${r + 1} | ${m.firstMs.toFixed(0)} | ${(m.mb / (m.firstMs / 1000)).toFixed(1)} | ${m.tenthsMs[0]!.toFixed(0)} | ${mid.join(', ')} | ${m.bestMs.toFixed(0)} | ${(m.mb / (m.bestMs / 1000)).toFixed(1)} | ${m.findings} |`,
    );
  }
  console.log(`load average at the end ${load()}`);
}

if (process.argv.includes('--child')) await child();
else parent(Number(process.argv[2] ?? 5));
