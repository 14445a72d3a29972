/**
 * The Action's curate mode end to end, as a runner runs it: `node dist`-style
 * bundle in its own process, a bare origin it pushes to, a fake GitHub on
 * 127.0.0.1. Agent-created skills spread over 200 days (a third archived, some
 * marked stale), one commit each. Reports wall time per run (first run: the
 * PR is created; second: unchanged), skills per second, and how cost grows.
 * Target: < 30 s at 1,000 skills. Run: `npx tsx bench/action-curate.ts [sizes…]`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAction } from '../scripts/build-action.js';
import { startFakeGitHub } from '../test/action/fake-github.js';

const now = new Date('2026-11-30T00:00:00Z');
const day = 86_400;
/** steady: a week's worth of change (skills spread over 33 days: a few go stale); backlog: 200 days (most archive). */
type Scenario = 'steady' | 'backlog';
const sizes = process.argv.slice(2).map(Number).filter(Boolean);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function generate(dir: string, count: number, spreadDays: number): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env });
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const start = Math.floor(now.getTime() / 1000) - spreadDays * day;
  const chunks: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name} — create\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    const body = `---\nname: ${name}\ndescription: Generated skill ${i}. Use when benchmarking the Action.\n---\n# ${name}\n\n1. Do the thing.\n2. Check it.\n`;
    const when = start + Math.floor((i / count) * (spreadDays - 1) * day);
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(body)}`,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join(''), env });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir, env });
}

function runBundle(entry: string, runEnv: Record<string, string>): Promise<{ ms: number; code: number; out: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [entry], { env: { ...env, ...runEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ ms: performance.now() - started, code: code ?? 1, out })));
}

async function measure(
  entry: string,
  count: number,
  scenario: Scenario,
): Promise<{ count: number; scenario: Scenario; first: number; second: number; transitions: string }> {
  const root = mkdtempSync(join(tmpdir(), 'skillgarden-bench-action-'));
  try {
    const seed = join(root, 'seed');
    generate(seed, count, scenario === 'backlog' ? 200 : 33);
    const bare = join(root, 'origin.git');
    execFileSync('git', ['clone', '-q', '--bare', seed, bare], { env });
    const workspace = join(root, 'workspace');
    execFileSync('git', ['clone', '-q', `file://${bare}`, workspace], { env });
    const branchSha = (branch: string) => {
      try {
        return execFileSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
          cwd: bare,
          env,
          encoding: 'utf8',
        }).trim();
      } catch {
        return null;
      }
    };
    const fake = await startFakeGitHub({ owner: 'bench', repo: 'skills', branchSha, bare });
    const runnerTemp = join(root, 'runner');
    mkdirSync(runnerTemp, { recursive: true });
    const output = join(runnerTemp, 'output');
    writeFileSync(output, '');
    const runEnv = {
      INPUT_MODE: 'curate',
      INPUT_TOKEN: 'ghs_bench',
      GITHUB_REPOSITORY: 'bench/skills',
      GITHUB_EVENT_NAME: 'workflow_dispatch',
      GITHUB_API_URL: fake.url,
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_WORKSPACE: workspace,
      GITHUB_REF: 'refs/heads/main',
      RUNNER_TEMP: runnerTemp,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: join(runnerTemp, 'summary'),
      SKILLGARDEN_NOW: now.toISOString(),
      HOME: runnerTemp,
    };
    writeFileSync(runEnv.GITHUB_STEP_SUMMARY, '');
    const first = await runBundle(entry, runEnv);
    const second = await runBundle(entry, runEnv);
    await fake.close();
    if (first.code !== 0 || second.code !== 0 || fake.pulls.length !== 1)
      throw new Error(`run failed at ${count}:\n${first.out}\n${second.out}`);
    const transitions = /transitions<<(\S+)\n(\d+)/.exec(readFileSync(output, 'utf8'))?.[2] ?? '?';
    return { count, scenario, first: first.ms, second: second.ms, transitions };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const outDir = mkdtempSync(join(tmpdir(), 'skillgarden-bench-bundle-'));
const entry = join(outDir, 'index.js');
await buildAction(entry);
const rows = [];
for (const scenario of ['steady', 'backlog'] as const) {
  for (const count of sizes.length > 0 ? sizes : [100, 300, 1000]) rows.push(await measure(entry, count, scenario));
}
rmSync(outDir, { recursive: true, force: true });
console.log('scenario | skills | transitions | first run (PR created) | second run (unchanged) | skills/s (first)');
for (const r of rows)
  console.log(
    `${r.scenario} | ${r.count} | ${r.transitions} | ${(r.first / 1000).toFixed(2)} s | ${(r.second / 1000).toFixed(2)} s | ${Math.round(r.count / (r.first / 1000))}`,
  );
for (const scenario of ['steady', 'backlog']) {
  const mine = rows.filter((r) => r.scenario === scenario);
  const [a, b] = [mine[0], mine.at(-1)];
  if (a && b && a !== b)
    console.log(
      `${scenario}: ${(b.count / a.count).toFixed(1)}× skills → ${(b.first / a.first).toFixed(2)}× time (first run), ${(b.second / a.second).toFixed(2)}× (second)`,
    );
}
console.log(
  `load average at the end: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
