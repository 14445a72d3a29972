/**
 * Rollback latency per backend and repository size: patch N skills, then roll
 * each patch back, newest first (every rollback is a real revert commit).
 * Run: npx tsx bench/ledger-rollback.ts [sizes=100,1000,10000] [rollbacks=30]
 */
import type { LedgerBackend } from '../src/ledger/ledger.js';
import { openLedger } from '../src/ledger/open-ledger.js';
import { loadavg } from 'node:os';
import { author, backends, cpuMs, fmt, generateRepo, percentile, warmup } from './ledger-commit.js';

async function benchRollbacks(dir: string, backend: LedgerBackend, count: number): Promise<{ times: number[]; cpu: number }> {
  const ledger = await openLedger(dir, { backend });
  const skills = (await ledger.listFiles('skills')).filter((f) => f.path.endsWith('SKILL.md')).length;
  const commits: string[] = [];
  for (let i = 0; i < count + warmup; i += 1) {
    const skill = `skills/skill-${(i * 7919) % skills}`;
    const changes = [
      { path: `${skill}/SKILL.md`, content: `---\nname: x\ndescription: patched ${backend} ${i}\n---\n` },
      { path: `${skill}/references/extra-${i}.md`, content: `extra ${i}\n` },
    ];
    const message = `skill(patch): skill — bench ${i}\n\nSkill-Action: patch\nSkill-Name: skill-${i}\nSkill-Actor: agent\n`;
    commits.push((await ledger.commit({ message, changes, author })).commit);
  }
  const times: number[] = [];
  let cpuStart = 0;
  for (const [i, commit] of commits.reverse().entries()) {
    if (i === warmup) cpuStart = cpuMs();
    const start = performance.now();
    const result = await ledger.rollback({ commit }, { author });
    if (result.status !== 'reverted') throw new Error(`expected a revert of ${commit}`);
    if (i >= warmup) times.push(performance.now() - start);
  }
  const cpu = (cpuMs() - cpuStart) / times.length;
  await ledger.close();
  return { times, cpu };
}

async function main(): Promise<void> {
  const sizes = (process.argv[2] ?? '100,1000,10000').split(',').map(Number);
  const count = Number(process.argv[3] ?? 30);
  console.log(
    `ledger rollback: ${count} rollbacks of 2-file patches per backend; ms; cpu/op = this process's CPU per rollback; load average ${loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    `${'skills'.padStart(7)} ${'backend'.padEnd(15)} ${'p50'.padStart(7)} ${'p95'.padStart(7)} ${'cpu/op'.padStart(7)} ${'rollbacks/s'.padStart(11)}`,
  );
  for (const size of sizes) {
    const repo = generateRepo(size);
    try {
      for (const backend of backends) {
        const { times, cpu } = await benchRollbacks(repo.dir, backend, count);
        const rate = (1000 * times.length) / times.reduce((a, b) => a + b, 0);
        console.log(
          `${String(size).padStart(7)} ${backend.padEnd(15)} ${fmt(percentile(times, 50))} ${fmt(percentile(times, 95))} ${fmt(cpu)} ${rate.toFixed(0).padStart(11)}`,
        );
      }
    } finally {
      repo.cleanup();
    }
  }
}

await main();
