/**
 * The curator's pass over 1,000 / 10,000 / 50,000 agent-created skills with
 * usage from 100 writers: read (discovery, history index, usage, references),
 * plan (the lifecycle), and a real run's commits. Run: `npx tsx bench/curate.ts [sizes…]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLifecycle } from '../src/core/lifecycle/index.js';
import { readLibrary } from '../src/services/curator/read-library.js';
import { runCurator } from '../src/services/curator/run-curator.js';
import { generateLibrary } from './curate-library.js';

const now = new Date('2026-11-30T00:00:00Z');
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

const time = async <T>(fn: () => Promise<T> | T) => {
  const start = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - start };
};

const rows = [
  '| skills | generate | read, cold history | read, warm | plan (pure) | transitions | dry run total | real run (commits) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const size of sizes.length ? sizes : [1_000, 10_000, 50_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-curate-'));
  try {
    const gen = await time(() => generateLibrary(dir, size, now));
    const cold = await time(() => readLibrary(dir, { now }));
    const warm = await time(() => readLibrary(dir, { now }));
    const plan = await time(() => planLifecycle(warm.result.skills, warm.result.config, now));
    const transitions = plan.result.decisions.filter((d) => d.kind === 'transition').length;
    const dry = await time(() => runCurator({ repoDir: dir, now, dryRun: true }));
    const real = size <= 1_000 ? await time(() => runCurator({ repoDir: dir, now })) : undefined;
    rows.push(
      `| ${size.toLocaleString('en-US')} | ${(gen.ms / 1000).toFixed(1)} s | ${cold.ms.toFixed(0)} ms | ${warm.ms.toFixed(0)} ms | ${plan.ms.toFixed(1)} ms | ${transitions.toLocaleString('en-US')} | ${dry.ms.toFixed(0)} ms | ${real ? `${(real.ms / 1000).toFixed(1)} s (${(real.ms / transitions).toFixed(1)} ms/commit)` : '—'} |`,
    );
    console.error(rows.at(-1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(rows.join('\n'));
