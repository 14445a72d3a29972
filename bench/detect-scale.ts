/**
 * `skillgarden detect` end to end, as a person runs it: `node bin/skillgarden.js detect --transcripts '<glob>' --json`,
 * a fresh process per run, its output to /dev/null, under /usr/bin/time -v (wall time and peak RSS of the whole
 * process: reading, mining, drafting and writing the report). Inputs are generated Claude Code JSONL
 * (bench/detect-transcripts.ts), kept under $SG_BENCH_DIR (default /tmp/sg-detect-scale) between runs.
 * Run: `npm run build` first, then `npx tsx bench/detect-scale.ts [--runs 3] [case…]`; cases below.
 * `BENCH_COMMAND=evidence` measures `skillgarden evidence` on the same inputs, over a library of three skills.
 * `--profile CASE` writes a CPU profile of one run (node --cpu-prof) and prints where the time went.
 * Each run is set beside its floor (`floorScript`): reading and parsing every line, keeping nothing.
 * Targets (issues #30, #31): 10,000 sessions / 2 M calls < 5 s and < 1 GiB; a million tiny sessions < 1 GiB;
 * two million < 20 s; cost linear from 0.5 to 2 M calls.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSessions } from './detect-transcripts.js';

interface Case {
  name: string;
  sessions: number;
  calls: number;
  files: number;
}

const cases: Case[] = [
  { name: 'calls-0.5M', sessions: 10_000, calls: 500_000, files: 20 },
  { name: 'calls-1M', sessions: 10_000, calls: 1_000_000, files: 20 },
  { name: 'calls-2M', sessions: 10_000, calls: 2_000_000, files: 20 },
  { name: 'tiny-200k-one-file', sessions: 200_000, calls: 400_000, files: 1 },
  { name: 'tiny-1M-one-file', sessions: 1_000_000, calls: 2_000_000, files: 1 },
  { name: 'tiny-1M-1000-files', sessions: 1_000_000, calls: 2_000_000, files: 1_000 },
  { name: 'tiny-2M-one-file', sessions: 2_000_000, calls: 4_000_000, files: 1 },
  { name: 'tiny-2M-1000-files', sessions: 2_000_000, calls: 4_000_000, files: 1_000 },
  { name: 'files-100k', sessions: 100_000, calls: 200_000, files: 100_000 },
];

const root = process.env.SG_BENCH_DIR ?? join(tmpdir(), 'sg-detect-scale');
const cli = join(import.meta.dirname, '..', 'bin', 'skillgarden.js');

/** The case's folder of transcripts, generated once (a `done` file marks a complete one). */
async function prepare(c: Case): Promise<{ dir: string; calls: number; bytes: number }> {
  const dir = join(root, c.name);
  const done = join(dir, 'done.txt');
  if (!existsSync(done)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 't'), { recursive: true });
    // Three levels at most 1,000 files each: a person's ~/.claude/projects holds a folder per project.
    const pathOf = (f: number) => {
      const sub = join(dir, 't', `p${Math.floor(f / 1000)}`);
      if (f % 1000 === 0) mkdirSync(sub, { recursive: true });
      return join(sub, `${f}.jsonl`);
    };
    const calls = await writeSessions(pathOf, { ...c, seed: 42 });
    writeFileSync(done, String(calls));
  }
  let bytes = 0;
  for (const sub of readdirSync(join(dir, 't')))
    for (const f of readdirSync(join(dir, 't', sub))) bytes += statSync(join(dir, 't', sub, f)).size;
  return { dir, calls: Number(readFileSync(done, 'utf8')), bytes };
}

interface Run {
  wall: number;
  /** User plus system CPU time: on a shared machine, wall time also measures the neighbours. */
  cpu: number;
  rssMiB: number;
  code: number | null;
  stderr: string;
}

/** `detect` (default) or `evidence` (BENCH_COMMAND): the same inputs, the same measurement. */
const command = process.env.BENCH_COMMAND ?? 'detect';

/**
 * The library the command reads: for detect none (the plain case); for evidence a committed one whose two skills
 * hold planted procedures (`release-cut`, `db-migrate`) and one nothing touches, so misses are counted for real.
 */
function prepareRepo(): string {
  const repo = join(root, command === 'evidence' ? 'repo-evidence' : 'repo');
  if (existsSync(repo)) return repo;
  mkdirSync(repo, { recursive: true });
  if (command !== 'evidence') return repo;
  const skill = (name: string, description: string, code: string) => {
    mkdirSync(join(repo, 'skills', name), { recursive: true });
    writeFileSync(
      join(repo, 'skills', name, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n\`\`\`sh\n${code}\n\`\`\`\n`,
    );
  };
  skill(
    'release-cut',
    'Cut a release. Use when publishing a new version to npm.',
    'npm version patch\ngit push --follow-tags\nnpm publish',
  );
  skill(
    'db-migrate',
    'Change the database schema. Use when adding a column or a table.',
    'npx prisma migrate dev --name <change>\nnpx prisma generate',
  );
  skill('oncall-rotate', 'Hand over on-call. Use when the on-call week ends.', 'pagerduty-cli schedule override');
  const git = (...a: string[]) => spawnSync('git', ['-C', repo, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...a]);
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'library');
  return repo;
}

/**
 * The floor, the peer each run is set beside: a bare node process that reads every file of the case in 1 MiB chunks,
 * decodes them and `JSON.parse`s every line, keeping nothing. Any JSONL reader in node does at least this much, so
 * the command's time over the floor's is what skillgarden adds.
 */
const floorScript = `
import { openSync, readSync, readdirSync, closeSync } from 'node:fs';
const buffer = Buffer.allocUnsafe(1 << 20);
let lines = 0;
for (const entry of readdirSync(process.argv[1], { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
  const fd = openSync(entry.parentPath + '/' + entry.name, 'r');
  let carry = '';
  for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) {
    const last = buffer.lastIndexOf(10, n - 1);
    const text = carry + buffer.toString('utf8', 0, last + 1);
    carry = buffer.toString('utf8', last + 1, n);
    for (let from = 0, at = text.indexOf('\\n'); at >= 0; from = at + 1, at = text.indexOf('\\n', from)) {
      JSON.parse(text.slice(from, at));
      lines += 1;
    }
  }
  closeSync(fd);
}
if (lines === 0) throw new Error('no lines');
`;

function run(dir: string, nodeArgs: string[] = [], floor = false): Run {
  const repo = prepareRepo();
  const start = performance.now();
  const argv = floor
    ? ['--input-type=module', '-e', floorScript, join(dir, 't')]
    : [...nodeArgs, cli, command, '--transcripts', join(dir, 't', '**', '*.jsonl'), '--json', '--repo', repo];
  const result = spawnSync('/usr/bin/time', ['-v', process.execPath, ...argv], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    cwd: dir,
    maxBuffer: 1 << 26,
  });
  const wall = performance.now() - start;
  const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1];
  const elapsed = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/.exec(result.stderr);
  const timed = elapsed === null ? wall : (Number(elapsed[1] ?? 0) * 3600 + Number(elapsed[2]) * 60 + Number(elapsed[3])) * 1000;
  const seconds = (label: string) => Number(new RegExp(`${label} time \\(seconds\\): ([\\d.]+)`).exec(result.stderr)?.[1] ?? NaN);
  return {
    wall: timed,
    cpu: (seconds('User') + seconds('System')) * 1000,
    rssMiB: Number(rss) / 1024,
    code: result.status,
    stderr: result.stderr,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** For a bundled chunk, the source module of each line (esbuild marks each module with a `// src/…` comment). */
function moduleLines(url: string, memo: Map<string, string[]>): string[] {
  let lines = memo.get(url);
  if (lines === undefined) {
    lines = [];
    let current = '(bundle)';
    const path = url.startsWith('file://') ? new URL(url).pathname : url;
    for (const line of existsSync(path) ? readFileSync(path, 'utf8').split('\n') : []) {
      const marker = /^\/\/ ((?:src|node_modules)\/\S+)$/.exec(line);
      if (marker !== null) current = marker[1] as string;
      lines.push(current);
    }
    memo.set(url, lines);
  }
  return lines;
}

/** A CPU profile's self time by function and by source module, the top `n` of each. */
function summarizeProfile(path: string, n = 15): string[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as {
    nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const memo = new Map<string, string[]>();
  const byFunction = new Map<string, number>();
  const byModule = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const us = profile.timeDeltas[i] ?? 0;
    const module =
      frame === undefined || frame.url === ''
        ? (frame?.functionName ?? '?')
        : (moduleLines(frame.url, memo)[frame.lineNumber] ?? frame.url);
    add(byFunction, `${frame?.functionName || '(anonymous)'} (${module})`, us);
    add(byModule, module, us);
  });
  const total = [...byFunction.values()].reduce((a, b) => a + b, 0);
  const top = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, us]) => `${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`);
  return [`sampled ${(total / 1e6).toFixed(1)} s; self time by module:`, ...top(byModule), 'by function:', ...top(byFunction)];
}

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt < 0 ? 3 : Number(args[runsAt + 1]);
const profileAt = args.indexOf('--profile');
const names = args.filter((a, i) => !a.startsWith('--') && i !== runsAt + 1 && i !== profileAt + 1);

if (profileAt >= 0) {
  const c = cases.find((x) => x.name === args[profileAt + 1]);
  if (c === undefined) throw new Error(`no case ${args[profileAt + 1]}: ${cases.map((x) => x.name).join(', ')}`);
  const { dir } = await prepare(c);
  const out = join(root, 'profiles');
  rmSync(out, { recursive: true, force: true });
  const r = run(dir, ['--cpu-prof', '--cpu-prof-dir', out]);
  console.log(`${c.name}: ${(r.wall / 1000).toFixed(1)} s wall, ${(r.cpu / 1000).toFixed(1)} s CPU, ${r.rssMiB.toFixed(0)} MiB (profiled)`);
  for (const file of readdirSync(out)) console.log(summarizeProfile(join(out, file)).join('\n'));
} else {
  console.log(
    `node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; \`${command}\`; ${runs} runs, medians`,
  );
  const rows = [
    '| case | files | sessions | calls | MiB read | wall (median) | runs | CPU (median) | peak RSS (median) | floor (median) | × floor |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|',
  ];
  for (const c of cases.filter((x) => names.length === 0 || names.includes(x.name))) {
    const { dir, calls, bytes } = await prepare(c);
    // --runs 0 only generates the inputs.
    if (runs === 0) continue;
    // The command and its floor in turns, so that both meet the same machine.
    const results: Run[] = [];
    const floors: Run[] = [];
    for (let i = 0; i < runs; i += 1) {
      results.push(run(dir));
      floors.push(run(dir, [], true));
    }
    const failed = [...results, ...floors].find((r) => r.code !== 0);
    if (failed !== undefined) throw new Error(`${c.name}: exit ${failed.code}\n${failed.stderr.slice(-2000)}`);
    const walls = results.map((r) => r.wall);
    rows.push(
      `| ${c.name} | ${c.files.toLocaleString('en-US')} | ${c.sessions.toLocaleString('en-US')} | ${calls.toLocaleString('en-US')} | ${(bytes / 2 ** 20).toFixed(0)} | ${(median(walls) / 1000).toFixed(1)} s | ${walls.map((w) => (w / 1000).toFixed(1)).join(', ')} | ${(median(results.map((r) => r.cpu)) / 1000).toFixed(1)} s | ${median(results.map((r) => r.rssMiB)).toFixed(0)} MiB | ${(median(floors.map((r) => r.wall)) / 1000).toFixed(1)} s | ${(median(walls) / median(floors.map((r) => r.wall))).toFixed(2)}× |`,
    );
    console.error(rows.at(-1));
  }
  console.log(rows.join('\n'));
}
