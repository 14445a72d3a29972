/**
 * Side by side with Hermes Agent's curator (issue 18, goal 3): the same library of agent-created skills,
 * a first pass that makes transitions and a steady pass with nothing to do, ours (runCurator, in-process)
 * and the peer's (agent.curator.apply_automatic_transitions, in one Python process, bench/hermes/curator-pass.py).
 * The peer's code is never part of this project: set HERMES_AGENT to a checkout of NousResearch/hermes-agent.
 * Run: `HERMES_AGENT=/path/to/hermes-agent npx tsx bench/hermes-curator.ts [skills]` (default 1000).
 * Without HERMES_AGENT it says so and exits 0.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCurator } from '../src/services/curator/run-curator.js';

const peer = process.env.HERMES_AGENT;
const count = Number(process.argv[2] ?? 1_000);
const now = new Date('2026-11-30T00:00:00Z');
const dayMs = 86_400_000;

if (!peer) {
  console.log('bench/hermes-curator.ts: skipped, HERMES_AGENT is not set (a checkout of NousResearch/hermes-agent to compare with).');
  process.exit(0);
}

/** `i`'s last use: most recent, about one in eight past the 30-day stale line, a few past the 90-day archive line. */
const lastUse = (i: number) => new Date(now.getTime() - (i % 8 === 0 ? 40 + (i % 70) : i % 25) * dayMs).toISOString();
const skillText = (name: string) =>
  `---\nname: ${name}\ndescription: Generated skill ${name}. Use when benchmarking.\n---\n# ${name}\n\n1. Do it.\n`;

/** Hermes's layout: $HERMES_HOME/skills/<name>/SKILL.md with the sidecar skills/.usage.json. */
function hermesLibrary(home: string): void {
  const usage: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    mkdirSync(join(home, 'skills', name), { recursive: true });
    writeFileSync(join(home, 'skills', name, 'SKILL.md'), skillText(name));
    usage[name] = {
      use_count: 1,
      last_used_at: lastUse(i),
      created_at: new Date(now.getTime() - 200 * dayMs).toISOString(),
      state: 'active',
    };
  }
  writeFileSync(join(home, 'skills', '.usage.json'), JSON.stringify(usage));
}

/** Ours: the same skills, created by the agent (one commit with trailers each, via fast-import), the same uses. */
function ourLibrary(dir: string): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const when = Math.floor(now.getTime() / 1000) - 200 * 86_400;
  const chunks: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name}\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when + i} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(skillText(name))}`,
    );
  }
  const skills = Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`skill-${i}`, { use_count: 1, last_used_at: lastUse(i).replace(/\.\d{3}Z$/, 'Z') }]),
  );
  chunks.push(
    `commit refs/heads/main\nmark :${count + 1}\ncommitter Bench <bench@example.com> ${when + count} +0000\n${data('usage\n')}from :${count}\nM 100644 inline .skillgarden/usage/agent.json\n${data(JSON.stringify({ version: 1, writer: 'agent', skills }))}`,
  );
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}

const peerCommit = spawnSync('git', ['-C', peer, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim() || 'unknown';
const home = mkdtempSync(join(tmpdir(), 'sg-bench-hermes-'));
const ours = mkdtempSync(join(tmpdir(), 'sg-bench-hermes-ours-'));
try {
  hermesLibrary(home);
  const result = spawnSync('python3', [join(import.meta.dirname, 'hermes', 'curator-pass.py'), home, now.toISOString()], {
    encoding: 'utf8',
    env: { ...process.env, HERMES_AGENT: peer },
  });
  if (result.status !== 0) {
    console.log(`Hermes Agent (${peerCommit}) could not run its curator pass here (exit ${result.status}):\n${result.stderr.slice(-2000)}`);
    process.exit(1);
  }
  const theirs = JSON.parse(result.stdout.trim().split('\n').at(-1) as string) as {
    first_ms: number;
    steady_ms: number;
    first: unknown;
    steady: unknown;
  };
  ourLibrary(ours);
  let start = performance.now();
  const first = await runCurator({ repoDir: ours, now });
  const firstMs = performance.now() - start;
  start = performance.now();
  await runCurator({ repoDir: ours, now, dryRun: true });
  const steadyMs = performance.now() - start;
  console.log(`Hermes Agent ${peerCommit}, ${count} skills`);
  console.log('| pass | Hermes Agent | skillgarden |\n|---|---:|---:|');
  console.log(
    `| first (${first.report.transitions.length} transitions; Hermes: ${JSON.stringify(theirs.first)}) | ${theirs.first_ms.toFixed(0)} ms | ${firstMs.toFixed(0)} ms |`,
  );
  console.log(`| steady (nothing to do) | ${theirs.steady_ms.toFixed(1)} ms | ${steadyMs.toFixed(1)} ms |`);
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(ours, { recursive: true, force: true });
}
