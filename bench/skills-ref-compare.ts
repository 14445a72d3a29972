/**
 * Conformance and speed against the reference validator, skills-ref (agentskills/agentskills).
 *
 *   SKILLS_REF=/path/to/skills-ref/src npx tsx bench/skills-ref-compare.ts
 *
 * Runs skills-ref and our validator (`spec` profile) over every skill folder of the corpus,
 * prints where their verdicts differ and why, and times both on the same folders at three
 * sizes. Without a runnable skills-ref it says so, compares against a re-statement of its
 * rules instead, and exits 0. How to obtain skills-ref: bench/skills-ref/README.md.
 *
 * It also times first runs side by side: skills-ref's one Python process, `skillgarden validate
 * --no-scan` and `skillgarden validate` (scan included), each on a fresh committed copy, three
 * interleaved rounds, medians, on the corpus and on generated libraries (`BENCH_SIZES`, default
 * 2000,10000; `BENCH_CORPUS=0` leaves the corpus out). `BENCH_SPEED_ONLY=1` runs only that.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../src/core/findings.js';
import { runValidate } from '../src/services/validate.js';
import { measureProcessPerSkill, resolveReference, runReference, type Reference, type ReferenceRun } from './skills-ref/reference.js';
import { generateLibrary } from './generate-library.js';
import { validateAsRestated } from './skills-ref/restated-rules.js';

const corpus = process.env.CORPUS ?? fileURLToPath(new URL('../../shared/corpus/skills', import.meta.url));
const outDir = fileURLToPath(new URL('../.bench-out/', import.meta.url));
// SKILLGARDEN_BIN: another build's bin/skillgarden.js, for a before/after in the same conditions.
const bin = process.env.SKILLGARDEN_BIN ?? fileURLToPath(new URL('../bin/skillgarden.js', import.meta.url));

interface Row {
  dir: string;
  reference: string[];
  ours: string[];
}

function listSkillDirs(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) found.push(dir);
    for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules' && e.name !== '.git') walk(join(dir, e.name));
  };
  walk(root);
  return found.sort();
}

/** Our errors per folder as short reasons, one runValidate call per folder so each verdict stands alone. */
function runOurs(dirs: readonly string[]): Map<string, string[]> {
  return new Map(
    dirs.map((dir) => {
      const report = runValidate({ cwd: corpus, paths: [dir], profile: 'spec' });
      const errors = report.findings.filter((f) => f.severity === 'error');
      return [dir, [...new Set(errors.map(explain))].sort()];
    }),
  );
}

/** Our finding code, with what skills-ref does differently where that is the point. */
function explain(f: Finding): string {
  const field = /`([^`]+)`/.exec(f.message)?.[1] ?? '';
  if (f.code === 'schema/type' && field.startsWith('metadata.'))
    return 'schema/type: a metadata value is not a string (skills-ref stringifies it)';
  if (f.code === 'schema/type' && field === 'allowed-tools') return 'schema/type: allowed-tools is a list (skills-ref accepts lists)';
  if (f.code === 'skill/link-escapes') return 'skill/link-escapes: a link leaves the skill folder (skills-ref checks no links)';
  if (f.code === 'skill/too-large') return 'skill/too-large (skills-ref has no size limit)';
  return f.code;
}

/** Why skills-ref rejected a skill, as a short reason class. */
function classify(message: string): string {
  if (message.startsWith('Invalid YAML') && /flow mapping/.test(message))
    return 'flow-style YAML ([a, b] or {k: v}): valid YAML, StrictYAML refuses it';
  if (message.startsWith('Invalid YAML')) return `YAML refused: ${message.split('\n').slice(-1)[0]?.trim().slice(0, 60)}`;
  if (message.startsWith('Unexpected fields')) return 'keys outside the spec';
  if (/must match skill name/.test(message)) return 'name differs from folder';
  if (/Description exceeds/.test(message)) return 'description over 1024 characters';
  if (/Compatibility exceeds/.test(message)) return 'compatibility over 500 characters';
  if (/Skill name .*(lowercase|invalid characters|exceeds)|hyphen/.test(message)) return 'name format';
  if (/frontmatter/i.test(message)) return 'frontmatter missing or unclosed';
  if (message.startsWith('crash')) return `reference crashed: ${message.slice(7, 70)}`;
  return message.slice(0, 70);
}

function group(rows: readonly Row[], key: (row: Row) => string): [string, Row[]][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups].sort((a, b) => b[1].length - a[1].length);
}

function printGroups(title: string, rows: readonly Row[], key: (row: Row) => string): void {
  console.log(`\n### ${title}: ${rows.length} skills\n\n| skills | why | examples |\n|---:|---|---|`);
  for (const [why, members] of group(rows, key)) {
    const examples = members
      .slice(0, 2)
      .map((r) => relative(corpus, r.dir))
      .join(', ');
    console.log(`| ${members.length} | ${why} | ${examples} |`);
  }
}

function compare(rows: readonly Row[], label: string): void {
  const refOk = (r: Row) => r.reference.length === 0;
  const ourOk = (r: Row) => r.ours.length === 0;
  const cell = (a: boolean, b: boolean) => rows.filter((r) => refOk(r) === a && ourOk(r) === b).length;
  console.log(`\n## Verdicts over ${rows.length} corpus skills (${label} vs skillgarden --profile spec)\n`);
  console.log('| | we accept | we reject |\n|---|---:|---:|');
  console.log(`| **${label} accepts** | ${cell(true, true)} | ${cell(true, false)} |`);
  console.log(`| **${label} rejects** | ${cell(false, true)} | ${cell(false, false)} |`);
  const reasons = (r: Row) => [...new Set(r.reference.map(classify))].sort().join(' + ');
  printGroups(
    `${label} rejects, we accept`,
    rows.filter((r) => !refOk(r) && ourOk(r)),
    reasons,
  );
  printGroups(
    `We reject, ${label} accepts`,
    rows.filter((r) => refOk(r) && !ourOk(r)),
    (r) => r.ours.join(' + '),
  );
  const codes = (r: Row) => [...new Set(r.ours.map((reason) => reason.split(/[: ]/)[0]))].join(' + ');
  printGroups(
    'Both reject (their reasons / our codes)',
    rows.filter((r) => !refOk(r) && !ourOk(r)),
    (r) => `${reasons(r)} / ${codes(r)}`,
  );
}

/** Keeps the fallback honest: how often the restated rules reach the real validator's verdict and reasons. */
function checkRestatement(real: ReferenceRun): void {
  const reasons = (errors: string[]) => [...new Set(errors.map(classify))].sort().join(' + ');
  const differ = real.verdicts.filter((v) => reasons(v.errors) !== reasons(validateAsRestated(v.dir)));
  console.log(
    `\nself-check of the fallback: the restated rules give the real skills-ref's reasons for ${real.verdicts.length - differ.length} of ${real.verdicts.length} skills.`,
  );
  for (const v of differ.slice(0, 5))
    console.log(`- ${relative(corpus, v.dir)}: real "${reasons(v.errors)}", restated "${reasons(validateAsRestated(v.dir))}"`);
}

function time<T>(fn: () => T): [T, number] {
  const started = performance.now();
  const value = fn();
  return [value, performance.now() - started];
}

function rate(count: number, ms: number): string {
  return `${ms.toFixed(0)} ms | ${(ms / count).toFixed(2)} ms | ${Math.round((count * 1000) / ms)}/s`;
}

/** CPU time of the waited-for children so far, in ms (cutime + cstime of /proc/self/stat, 10 ms ticks); undefined off Linux. */
function childrenCpuMs(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** One timed child: wall and CPU (user + system) in ms. */
function timedChild(run: () => void): { wall: number; cpu: number | undefined } {
  const cpu0 = childrenCpuMs();
  const started = performance.now();
  run();
  const wall = performance.now() - started;
  const cpu1 = childrenCpuMs();
  return { wall, cpu: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 };
}

/** git, isolated from the machine's configuration. */
function git(cwd: string, ...args: string[]): void {
  const env = { ...process.env, HOME: cwd, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const child = spawnSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd, env, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${child.stderr}`);
}

/** The size in bytes of every file under `root` but `.git`. */
function treeBytes(root: string): number {
  let total = 0;
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, e.name);
    if (e.isDirectory() && e.name !== '.git') total += treeBytes(path);
    else if (e.isFile()) total += statSync(path).size;
  }
  return total;
}

/**
 * First runs, side by side with skills-ref in one run: three interleaved rounds, each of skills-ref's one Python
 * process over the library's skill folders, then `skillgarden validate --no-scan` and `skillgarden validate` (scan
 * included), each on a fresh committed copy (`fill` writes it), as a person's first run in a repository; medians.
 */
function measureFirstRuns(label: string, fill: (root: string) => void, reference: Reference): void {
  const fresh = () => {
    const repo = mkdtempSync(join(tmpdir(), 'skillgarden-first-run-'));
    fill(repo);
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, '-c', 'gc.auto=0', 'commit', '-qm', 'library');
    return repo;
  };
  const ours = (repo: string, ...extra: string[]) =>
    timedChild(() => {
      const child = spawnSync(process.execPath, [bin, 'validate', '--json', '--profile', 'spec', ...extra, '.'], {
        cwd: repo,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
      });
      if (child.status !== 0 && child.status !== 1) throw new Error(`skillgarden validate exited ${child.status}: ${child.stderr}`);
    });
  const rounds = {
    reference: [] as number[],
    noScan: [] as number[],
    scan: [] as number[],
    cpu: { reference: [] as number[], noScan: [] as number[], scan: [] as number[] },
  };
  let skills = 0;
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const repo = fresh();
    try {
      const dirs = listSkillDirs(repo);
      skills = dirs.length;
      bytes = treeBytes(repo);
      if (reference.kind !== 'missing') {
        let wallMs = 0;
        const { cpu } = timedChild(() => (wallMs = runReference(reference, dirs).wallMs));
        rounds.reference.push(wallMs);
        if (cpu !== undefined) rounds.cpu.reference.push(cpu);
      }
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
    for (const [into, cpu, extra] of [
      [rounds.noScan, rounds.cpu.noScan, ['--no-scan']],
      [rounds.scan, rounds.cpu.scan, []],
    ] as const) {
      const copy = fresh();
      try {
        const run = ours(copy, ...extra);
        into.push(run.wall);
        if (run.cpu !== undefined) cpu.push(run.cpu);
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  }
  const ref = rounds.reference.length > 0 ? median(rounds.reference) : undefined;
  const times = (wall: number) => (ref === undefined ? 'n/a' : `${(ref / wall).toFixed(2)}×`);
  const [noScan, scan] = [median(rounds.noScan), median(rounds.scan)];
  const cpu = (values: number[]) => (values.length > 0 ? ` (CPU ${median(values).toFixed(0)} ms)` : '');
  // The scan's share of the run: the CPU it adds over --no-scan (steadier than wall on a shared machine), over the library's bytes.
  const scanCpu = rounds.cpu.scan.length > 0 ? median(rounds.cpu.scan) - median(rounds.cpu.noScan) : scan - noScan;
  const scanMBs = bytes / 1e6 / (Math.max(1, scanCpu) / 1000);
  console.log(`\n### ${label}: ${skills} skills, ${(bytes / 1e6).toFixed(1)} MB, first run on a fresh copy, medians of 3 interleaved\n`);
  console.log('| run | wall | × skills-ref |\n|---|---:|---:|');
  if (ref !== undefined) console.log(`| skills-ref, one Python process | ${ref.toFixed(0)} ms${cpu(rounds.cpu.reference)} | 1× |`);
  console.log(`| skillgarden validate --no-scan | ${noScan.toFixed(0)} ms${cpu(rounds.cpu.noScan)} | ${times(noScan)} |`);
  console.log(`| skillgarden validate, scan included | ${scan.toFixed(0)} ms${cpu(rounds.cpu.scan)} | ${times(scan)} |`);
  console.log(
    `\nthe scan: ${scanCpu.toFixed(0)} ms of CPU over --no-scan, ${scanMBs.toFixed(1)} MB/s (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
}

/** The first-run comparison over the corpus and generated libraries (`BENCH_SIZES`, default 2000,10000). */
function measureSpeed(reference: Reference): void {
  if (reference.kind === 'missing') console.log(`\nskills-ref is not available (${reference.reason}): skillgarden alone.`);
  if (existsSync(corpus) && process.env.BENCH_CORPUS !== '0')
    measureFirstRuns('corpus', (root) => cpSync(corpus, join(root, 'skills'), { recursive: true }), reference);
  for (const size of (process.env.BENCH_SIZES ?? '2000,10000').split(',').filter(Boolean).map(Number))
    measureFirstRuns(`generated ${size}`, (root) => generateLibrary(root, size), reference);
}

function main(): void {
  const dirs = listSkillDirs(corpus);
  console.log(`# skills-ref conformance and speed\n\ncorpus: ${corpus} (${dirs.length} skill folders)`);
  const reference = resolveReference(process.env);
  if (process.env.BENCH_SPEED_ONLY === '1') {
    measureSpeed(reference);
    return;
  }

  runValidate({ cwd: corpus, paths: dirs.slice(0, 1), profile: 'spec' }); // compile the schema profiles once
  const [ours, oursMs] = time(() => runOurs(dirs));

  let refRun: ReferenceRun;
  let label = 'skills-ref';
  if (reference.kind === 'missing') {
    console.log(`\n**skills-ref is not available: ${reference.reason}.**`);
    console.log('Comparing against a RE-STATEMENT of its rules (bench/skills-ref/restated-rules.ts), not the real validator.');
    console.log('To run the real one, see bench/skills-ref/README.md.');
    label = 'restated skills-ref rules';
    const [verdicts, wallMs] = time(() => dirs.map((dir) => ({ dir, errors: validateAsRestated(dir), ms: 0 })));
    refRun = { verdicts, wallMs };
  } else {
    console.log(
      `\nreference: ${reference.kind === 'python-source' ? `${reference.python} with PYTHONPATH=${reference.pythonPath}` : reference.argv.join(' ')}`,
    );
    refRun = runReference(reference, dirs);
  }

  if (reference.kind !== 'missing') checkRestatement(refRun);
  const rows = refRun.verdicts.map((v) => ({ dir: v.dir, reference: v.errors, ours: ours.get(v.dir) ?? [] }));
  compare(rows, label);
  if (reference.kind !== 'missing') printTiming(reference, dirs, refRun, oursMs);
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'skills-ref-compare.json');
  writeFileSync(out, `${JSON.stringify({ corpus, label, rows: rows.map((r) => ({ ...r, dir: relative(corpus, r.dir) })) }, null, 1)}\n`);
  console.log(`\nper-skill verdicts: ${out}`);
}

function printTiming(
  reference: Parameters<typeof runReference>[0],
  dirs: readonly string[],
  full: ReferenceRun,
  oursPerSkillMs: number,
): void {
  console.log('\n## Speed, same folders, same run (wall clock, files read by each)\n');
  console.log('| validator | skills | total | per skill | throughput | of the total: process start + import |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const sizes = [4, 2, 1].map((step) => dirs.filter((_, i) => i % step === 0));
  for (const subset of sizes) {
    const refRun = subset.length === dirs.length ? full : runReference(reference, subset);
    const [, oursMs] = time(() => runValidate({ cwd: corpus, paths: subset, profile: 'spec' }));
    const start = refRun.startMs === undefined ? 'per skill' : `${refRun.startMs.toFixed(0)} ms`;
    console.log(
      `| skills-ref, ${refRun.startMs === undefined ? 'one process per skill' : 'one Python process'} | ${subset.length} | ${rate(subset.length, refRun.wallMs)} | ${start} |`,
    );
    console.log(`| skillgarden runValidate, one call | ${subset.length} | ${rate(subset.length, oursMs)} | (in process) |`);
  }
  console.log(
    `| skillgarden runValidate, one call per skill (first pass, JIT cold) | ${dirs.length} | ${rate(dirs.length, oursPerSkillMs)} | (in process) |`,
  );
  // The command a user runs: one process over the whole corpus, the security scan included (the corpus folder is
  // no git repository, so no cache: every run is cold), median of 3.
  const cli = (args: string[], env: Record<string, string> = {}) => {
    const runs = [0, 1, 2].map(() => {
      const started = performance.now();
      const child = spawnSync(process.execPath, [bin, 'validate', '--json', '--profile', 'spec', '--no-cache', ...args, '.'], {
        cwd: corpus,
        encoding: 'utf8',
        maxBuffer: 1 << 30,
        env: { ...process.env, ...env },
      });
      if (child.status !== 0 && child.status !== 1) throw new Error(`skillgarden validate exited ${child.status}: ${child.stderr}`);
      return performance.now() - started;
    });
    return runs.sort((a, b) => a - b)[1]!;
  };
  const withScan = cli([]);
  const noScan = cli(['--no-scan']);
  console.log(`| skillgarden validate (CLI, one process, scan included) | ${dirs.length} | ${rate(dirs.length, withScan)} | (process) |`);
  console.log(`| skillgarden validate --no-scan (CLI, one process) | ${dirs.length} | ${rate(dirs.length, noScan)} | (process) |`);
  console.log(
    `\nskills-ref one process over all ${dirs.length} skills: ${full.wallMs.toFixed(0)} ms; skillgarden validate with the scan ${(full.wallMs / withScan).toFixed(2)}× faster, without it ${(full.wallMs / noScan).toFixed(2)}× (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}).`,
  );
  measureSpeed(reference);
  const sample = dirs.filter((_, i) => i % Math.max(1, Math.floor(dirs.length / 20)) === 0).slice(0, 20);
  const perProcess = measureProcessPerSkill(reference, sample);
  if (perProcess === undefined) {
    console.log('\nskills-ref CLI per-skill cost not measured (its CLI needs click: apt-get install python3-click).');
  } else {
    const total = ((perProcess * dirs.length) / 1000).toFixed(1);
    console.log(
      `\nskills-ref as a CLI, one process per skill (\`skills-ref validate DIR\`, mean of ${sample.length}): ${perProcess.toFixed(0)} ms per skill, about ${total} s for ${dirs.length} skills.`,
    );
  }
  console.log('Ours does more per skill: positions for every finding, schema by ajv, links, sizes, body length.');
}

main();
