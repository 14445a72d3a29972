/**
 * History index: cold build and incremental update, both walkers, at 1k / 5k / 10k commits
 * touching 400 skills (repositories generated with `git fast-import`).
 * Targets (DESIGN §3): cold ≤ 1 s and incremental ≤ 50 ms at 5,000 commits with the system git.
 * Run: `npx tsx bench/history-index.ts [sizes…]`, e.g. `npx tsx bench/history-index.ts 1000 5000`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCommitMessage, type LedgerTrailers } from '../src/core/ledger/trailers.js';
import { readHistoryIndex } from '../src/ledger/history-index.js';
import { readLog } from '../src/ledger/log.js';

const skillCount = 400;
const start = Date.parse('2026-01-01T00:00:00Z') / 1000;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

const message = (subject: string, trailers: Partial<LedgerTrailers>) =>
  buildCommitMessage({ subject, trailers: { skills: [], actor: 'agent', reverts: [], ...trailers } });

/** The n-th commit: creations first, then patches, support files, archives and restores, plain edits. */
function commitOf(n: number, archived: Set<number>): { message: string; ops: string } {
  const i = n < skillCount ? n : (n * 7919) % skillCount;
  const name = `skill-${i}`;
  const folder = (a: boolean) => `skills/${a ? '.archive/' : ''}${i % 5 === 0 ? 'tools/' : ''}${name}`;
  const file = (path: string, text: string) => `M 100644 inline ${path}\n${data(text)}`;
  const skillText = `---\nname: ${name}\ndescription: skill ${i}\n---\nVersion ${n}.\n`;
  if (n < skillCount) {
    return {
      message: message(`skill(create): ${name}`, { action: 'create', skills: [name], source: i % 2 ? 'background' : 'foreground' }),
      ops: file(`${folder(false)}/SKILL.md`, skillText),
    };
  }
  const here = folder(archived.has(i));
  if (n % 50 === 0) {
    const to = !archived.has(i);
    if (to) archived.add(i);
    else archived.delete(i);
    return {
      message: message(`skill(${to ? 'archive' : 'restore'}): ${name}`, {
        action: to ? 'archive' : 'restore',
        skills: [name],
        actor: 'curator',
      }),
      ops: `D ${here}\n${file(`${folder(to)}/SKILL.md`, skillText)}`,
    };
  }
  if (n % 10 === 0)
    return {
      message: message(`skill(write-file): ${name}`, { action: 'write-file', skills: [name] }),
      ops: file(`${here}/references/notes-${n % 3}.md`, `n${n}\n`),
    };
  if (n % 7 === 0) return { message: `Edit ${name} by hand\n`, ops: file(`${here}/SKILL.md`, skillText) };
  return { message: message(`skill(patch): ${name}`, { action: 'patch', skills: [name] }), ops: file(`${here}/SKILL.md`, skillText) };
}

function generateRepo(commits: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-history-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env });
  const archived = new Set<number>();
  const chunks: string[] = [];
  for (let n = 0; n < commits; n++) {
    const { message: text, ops } = commitOf(n, archived);
    chunks.push(
      `commit refs/heads/main\nmark :${n + 1}\ncommitter Bench <bench@example.com> ${start + n * 60} +0000\n${data(text)}${n > 0 ? `from :${n}\n` : ''}${ops}\n`,
    );
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join(''), env, maxBuffer: 1 << 30 });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir, env });
  return dir;
}

function addCommit(dir: string, n: number): void {
  writeFileSync(join(dir, 'skills', `skill-1`, 'SKILL.md'), `---\nname: skill-1\ndescription: skill 1\n---\nExtra ${n}.\n`);
  const date = `@${start + 10_000_000 + n * 60} +0000`;
  execFileSync('git', ['-c', 'user.name=B', '-c', 'user.email=b@example.com', 'commit', '-q', '-a', '-F', '-'], {
    cwd: dir,
    input: message('skill(patch): skill-1', { action: 'patch', skills: ['skill-1'] }),
    env: { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const rows = [
  '| commits | walker | cold index | commits/s | incremental (+1 commit, median of 5) | log, all entries |',
  '|---:|---|---:|---:|---:|---:|',
];

for (const commits of sizes.length > 0 ? sizes : [1_000, 5_000, 10_000]) {
  const dir = generateRepo(commits);
  let extra = 0;
  try {
    for (const backend of ['system-git', 'isomorphic-git'] as const) {
      const runs = backend === 'system-git' ? 3 : 1;
      const cold: number[] = [];
      let skills = 0;
      for (let r = 0; r < runs; r++) {
        cold.push(
          await timed(async () => {
            skills = Object.keys((await readHistoryIndex(dir, { backend, cache: false })).index.skills).length;
          }),
        );
      }
      await readHistoryIndex(dir, { backend }); // fill the cache
      const incremental: number[] = [];
      for (let r = 0; r < 5; r++) {
        addCommit(dir, extra++);
        incremental.push(
          await timed(async () => {
            const result = await readHistoryIndex(dir, { backend });
            if (result.update !== 'incremental') throw new Error(`expected an incremental update, got ${result.update}`);
          }),
        );
      }
      const log = await timed(() => readLog(dir, { backend }));
      const coldMs = median(cold);
      rows.push(
        `| ${commits.toLocaleString('en-US')} | ${backend} | ${coldMs.toFixed(0)} ms${runs > 1 ? ' (median of 3)' : ''} | ${Math.round((commits / coldMs) * 1000).toLocaleString('en-US')} | ${median(incremental).toFixed(1)} ms | ${log.toFixed(0)} ms |`,
      );
      console.error(`${commits} commits, ${backend}: ${skills} skills indexed`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(rows.join('\n'));
