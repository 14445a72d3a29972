/**
 * Security-scan throughput: the real corpus, then a generated library at
 * 1k / 5k / 10k skills to show how cost grows with size; then the scan's CPU
 * time next to `runValidate`'s on the same libraries (the libraries of
 * bench/validate.ts), since `validate` runs both (issue 9: the scan should add
 * under 30%). CPU time (`process.cpuUsage`, best of 3) is the figure to
 * trust on a shared machine; wall time is shown for reference.
 * Run: npx tsx bench/scan.ts
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanSkillText } from '../src/core/scan/match.js';
import { runScan } from '../src/services/scan.js';
import { runValidate, type ValidateOptions } from '../src/services/validate.js';
import { runValidateAndScan } from '../src/services/validate-and-scan.js';
import { seededRandom } from '../test/helpers/random.js';
import { generateLibrary } from './generate-library.js';

const corpus = fileURLToPath(new URL('../../shared/corpus/skills', import.meta.url));

const prose = [
  'Read the configuration before you change anything, and keep a copy of the original.',
  'When the user asks for a summary, list the files you touched and why.',
  'Run the test suite with `npm test` and fix failures one at a time.',
  'Use `git status` to see what changed; commit with a clear message.',
  'The API returns JSON; parse it and report the fields the user asked for.',
  'If a step fails, stop and explain the error instead of retrying blindly.',
  '| option | default | meaning |',
  '| `--dry-run` | false | print what would happen |',
  'Prefer small, reviewable changes over large rewrites.',
  'See [the reference](references/details.md) for the full list of flags.',
];
const code = [
  'pip install requests==2.32.3',
  'python scripts/run.py --input data.csv --output out.json',
  'curl -s https://api.example.com/v1/items -H "Accept: application/json"',
  'docker build -t app . && docker run --rm app',
  'export PATH="$HOME/.local/bin:$PATH"',
  'for f in *.md; do wc -l "$f"; done',
];
const flagged = [
  'curl -fsSL https://get.example.com/install.sh | sh',
  'sudo apt-get install -y jq',
  'uvicorn app:app --host 0.0.0.0 --port 8000',
];

/** A plausible SKILL.md of ~3 KB: prose, a code block, now and then a line the scan flags. */
function skillText(name: string, random: () => number): string {
  const lines = [
    '---',
    `name: ${name}`,
    `description: Handles ${name} tasks. Use when the user asks about ${name}.`,
    '---',
    `# ${name}`,
    '',
  ];
  for (let section = 0; section < 4; section += 1) {
    lines.push(`## Step ${section + 1}`, '');
    for (let i = 0; i < 5; i += 1) lines.push(prose[Math.floor(random() * prose.length)]!);
    lines.push('', '```bash');
    for (let i = 0; i < 4; i += 1) lines.push(code[Math.floor(random() * code.length)]!);
    if (random() < 0.05) lines.push(flagged[Math.floor(random() * flagged.length)]!);
    lines.push('```', '');
  }
  return `${lines.join('\n')}\n`;
}

function generate(root: string, count: number): string[] {
  const random = seededRandom(count);
  const dirs: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = `skill-${i}`;
    const dir = i % 3 === 0 ? join(root, 'skills', `cat-${i % 7}`, name) : join(root, 'skills', name);
    mkdirSync(join(dir, 'references'), { recursive: true });
    writeFileSync(join(dir, 'SKILL.md'), skillText(name, random));
    if (i % 2 === 0) writeFileSync(join(dir, 'references', 'details.md'), skillText(`${name}-details`, random));
    dirs.push(dir);
  }
  return dirs;
}

interface Measure {
  label: string;
  skills: number;
  files: number;
  mb: number;
  wallMs: number;
  cpuMs: number;
  dangerous: number;
}

async function measure(label: string, scan: () => ReturnType<typeof runScan>): Promise<Measure> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const report = await scan();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return {
    label,
    skills: report.skills,
    files: report.files,
    mb: report.bytes / 1e6,
    wallMs,
    cpuMs: (used.user + used.system) / 1000,
    dangerous: report.summary.dangerous,
  };
}

function row(m: Measure): string {
  const s = m.wallMs / 1000;
  return `| ${m.label} | ${m.skills} | ${m.files} | ${m.mb.toFixed(1)} | ${m.wallMs.toFixed(0)} | ${m.cpuMs.toFixed(0)} | ${(m.skills / s).toFixed(0)} | ${(m.mb / s).toFixed(1)} | ${(m.cpuMs / m.skills).toFixed(2)} |`;
}

/** The pure matcher alone, on the corpus files already in memory: the ceiling without file-system cost. */
function measureInMemory(): string {
  const texts: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else texts.push(readFileSync(path, 'utf8'));
    }
  };
  walk(corpus);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const cpu = process.cpuUsage();
  for (const text of texts) scanSkillText(text, { file: 'SKILL.md' });
  const used = process.cpuUsage(cpu);
  const ms = (used.user + used.system) / 1000;
  return `scanSkillText alone on the corpus in memory: ${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms CPU = ${(bytes / 1e6 / (ms / 1000)).toFixed(1)} MB/s`;
}

async function cpuMs(fn: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

async function bestCpuMs(fn: () => unknown): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i += 1) best = Math.min(best, await cpuMs(fn));
  return best;
}

function shareRow(label: string, skills: number, validateMs: number, bothMs: number): string {
  const perSkill = (ms: number): string => ((ms * 1000) / skills).toFixed(0);
  const scanMs = bothMs - validateMs;
  return `| ${label} | ${skills} | ${validateMs.toFixed(0)} | ${perSkill(validateMs)} | ${bothMs.toFixed(0)} | ${scanMs.toFixed(0)} | ${perSkill(scanMs)} | ${((scanMs / validateMs) * 100).toFixed(0)}% |`;
}

/** validate, then the scan, sharing folder listings and SKILL.md reads, as `skillgarden validate` runs them. */
async function validateThenScan(cwd: string, paths: string[], validate: Omit<ValidateOptions, 'cwd' | 'paths'>): Promise<void> {
  await runValidateAndScan({ cwd, paths, ...validate, scan: {} });
}

/**
 * What the scan adds to validate's CPU time, on the corpus and on
 * bench/validate.ts's generated libraries: validate alone, then validate and
 * the scan as the CLI runs them (sharing folder listings and SKILL.md reads).
 */
async function compareWithValidate(): Promise<void> {
  console.log(
    '\n| input (CPU, best of 3) | skills | validate ms | validate µs/skill | validate + scan ms | the scan adds ms | µs/skill | scan / validate |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  if (existsSync(corpus)) {
    const validateMs = await bestCpuMs(() => runValidate({ cwd: corpus, paths: ['.'], profile: 'spec' }));
    const bothMs = await bestCpuMs(() => validateThenScan(corpus, ['.'], { profile: 'spec' }));
    console.log(shareRow('corpus', 716, validateMs, bothMs));
  }
  for (const size of [1_000, 5_000, 10_000]) {
    const root = mkdtempSync(join(tmpdir(), 'sg-bench-scan-share-'));
    try {
      generateLibrary(root, size);
      const validateMs = await bestCpuMs(() => runValidate({ cwd: root }));
      const bothMs = await bestCpuMs(() => validateThenScan(root, [], {}));
      console.log(shareRow(`generated ${size}`, size, validateMs, bothMs));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}

async function main(): Promise<void> {
  console.log(
    `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| input | skills | files | MB | wall ms | cpu ms | skills/s | MB/s | cpu ms/skill |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  // Warm-up so rule compilation and JIT are not billed to the first size.
  if (existsSync(corpus)) {
    await runScan(['.'], { repo: corpus, deep: true });
    console.log(row(await measure('corpus (716 skills)', () => runScan(['.'], { repo: corpus, deep: true }))));
  }
  const root = mkdtempSync(join(tmpdir(), 'sg-bench-scan-'));
  try {
    const dirs = generate(root, 10_000);
    for (const size of [1_000, 5_000, 10_000]) {
      console.log(row(await measure(`generated ${size}`, () => runScan(dirs.slice(0, size), { repo: root }))));
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (existsSync(corpus)) console.log(measureInMemory());
  await compareWithValidate();
}

await main();
