/**
 * The scan's cost per megabyte of text: `scanSkillText` (and the decoding
 * before it) over every file of a library already in memory, first pass (as a
 * cold CLI run pays it, JIT included) and warm passes, CPU time. `--dump FILE`
 * writes every file's findings instead, to compare two versions of the scan.
 * Run it bundled, as the CLI runs: under tsx every imported constant is read
 * through a getter, which in the text pass's loop cost more than the loop
 * (the constants of line-gates.ts, 1.9 s of 4.8 s in a profile):
 *   npx esbuild bench/scan-mb.ts --bundle --platform=node --format=esm --outfile=/tmp/scan-mb.mjs
 *   node /tmp/scan-mb.mjs [DIR…]   (from the worktree: defaults to ../shared/corpus/skills)
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { buildContentFindings } from '../src/core/scan/content-findings.js';
import { decodeContent } from '../src/core/scan/content.js';
import { scanSkillText } from '../src/core/scan/match.js';

const args = process.argv.slice(2);
const dumpAt = args.indexOf('--dump');
const dump = dumpAt >= 0 ? args.splice(dumpAt, 2)[1] : undefined;
const dirs = args.length > 0 ? args : [resolve('../shared/corpus/skills')];

interface Input {
  path: string;
  bytes: Uint8Array;
}

function walk(dir: string, rel: string, out: Input[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (entry.name === '.git') continue;
    const path = join(dir, entry.name);
    const shown = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(path, shown, out);
    else if (entry.isFile()) out.push({ path: shown, bytes: readFileSync(path) });
  }
}

const inputs: Input[] = [];
for (const dir of dirs) walk(dir, '', inputs);
const mb = inputs.reduce((n, i) => n + i.bytes.length, 0) / 1e6;

function scanAll(): unknown[] {
  return inputs.map(({ path, bytes }) => {
    const content = decodeContent(bytes, path, false);
    return [path, buildContentFindings(content, path), content.kind === 'text' ? scanSkillText(content.text, { file: path }) : []];
  });
}

if (dump) {
  writeFileSync(dump, `${JSON.stringify(scanAll(), null, 1)}\n`);
  console.log(`${inputs.length} files, ${mb.toFixed(1)} MB: findings written to ${dump}`);
} else {
  const runs: number[] = [];
  const count = Number(process.env.SCAN_MB_RUNS ?? 6);
  for (let i = 0; i < count; i += 1) {
    const before = process.cpuUsage();
    scanAll();
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / 1000);
  }
  const [first, ...warm] = runs;
  const best = Math.min(...warm);
  console.log(
    `${inputs.length} files, ${mb.toFixed(1)} MB, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(
        ' ',
      )}: first pass ${first!.toFixed(0)} ms CPU (${(mb / (first! / 1000)).toFixed(1)} MB/s), warm best ${best.toFixed(0)} ms (${(mb / (best / 1000)).toFixed(1)} MB/s), warm ${warm.map((w) => w.toFixed(0)).join(' ')}`,
  );
}
