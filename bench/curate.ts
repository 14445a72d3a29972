/**
 * The curator's pass over 1,000 / 10,000 / 50,000 agent-created skills with
 * usage from 100 writers: read (discovery, history index, usage, references),
 * plan (the lifecycle), and a real run's commits. Run: `npx tsx bench/curate.ts [sizes…]`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLifecycle } from '../src/core/lifecycle/index.js';
import { readLibrary } from '../src/services/curator/read-library.js';
import { runCurator } from '../src/services/curator/run-curator.js';

const now = new Date('2026-11-30T00:00:00Z');
const day = 86_400;
const sizes = process.argv.slice(2).map(Number).filter(Boolean);

/** One commit per agent-created skill (with trailers), then one commit with 100 writers' usage files: via git fast-import. */
function generate(dir: string, count: number): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const chunks: string[] = [];
  const start = Math.floor(now.getTime() / 1000) - 200 * day;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name} — create\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    const body = `---\nname: ${name}\ndescription: Generated skill ${i}. Use when benchmarking.\n---\n# ${name}\n\n1. Do the thing.\n`;
    const when = start + Math.floor((i / count) * 190 * day);
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(body)}`,
    );
  }
  const usageLines: string[] = [];
  for (let w = 0; w < 100; w++) {
    const skills: Record<string, unknown> = {};
    for (let i = w; i < count; i += 20)
      skills[`skill-${i}`] = {
        use_count: 1 + (i % 5),
        last_used_at: new Date(now.getTime() - ((i * 7 + w) % 150) * day * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
    usageLines.push(
      `M 100644 inline .skillgarden/usage/writer-${w}.json\n${data(JSON.stringify({ version: 1, writer: `writer-${w}`, skills }))}`,
    );
  }
  chunks.push(
    `commit refs/heads/main\nmark :${count + 1}\ncommitter Bench <bench@example.com> ${start + 195 * day} +0000\n${data('usage from 100 writers\n')}from :${count}\n${usageLines.join('')}`,
  );
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}

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
    const gen = await time(() => generate(dir, size));
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
