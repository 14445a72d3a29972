/**
 * A generated skills repository for the history benches, written with `git fast-import`: 400 skills
 * created one by one, then rounds of a topic branch merged back into `main` (`--no-ff`), the branch's
 * commits and main's interleaved in time, so topological order is not date order; archives and
 * restores on main, plain edits without trailers, and now and then one commit touching 300 skills.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCommitMessage, type LedgerTrailers } from '../src/core/ledger/trailers.js';

export const skillCount = 400;
const start = Date.parse('2026-01-01T00:00:00Z') / 1000;
export const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
const message = (subject: string, trailers: Partial<LedgerTrailers>) =>
  buildCommitMessage({ subject, trailers: { skills: [], actor: 'agent', reverts: [], ...trailers } });
const skillText = (i: number, n: number) => `---\nname: skill-${i}\ndescription: skill ${i}\n---\nVersion ${n}.\n`;

interface Generator {
  chunks: string[];
  mark: number;
  time: number;
  archived: Set<number>;
}

function folder(i: number, archived: boolean): string {
  return `skills/${archived ? '.archive/' : ''}${i % 5 === 0 ? 'tools/' : ''}skill-${i}`;
}

function emit(g: Generator, ref: string, text: string, ops: string, from: number | null, merge?: number): number {
  const mark = ++g.mark;
  g.time += 60;
  const parents = `${from === null ? '' : `from :${from}\n`}${merge === undefined ? '' : `merge :${merge}\n`}`;
  g.chunks.push(`commit ${ref}\nmark :${mark}\ncommitter Bench <bench@example.com> ${g.time} +0000\n${data(text)}${parents}${ops}\n`);
  return mark;
}

/** A patch to an odd skill (never archived, so a branch can touch it while main archives even ones). */
function patchOps(n: number): { text: string; ops: string } {
  const i = ((n * 7919) % (skillCount / 2)) * 2 + 1;
  const path = `${folder(i, false)}/${n % 3 === 0 ? `references/notes-${n % 4}.md` : 'SKILL.md'}`;
  const ops = `M 100644 inline ${path}\n${data(n % 3 === 0 ? `n${n}\n` : skillText(i, n))}`;
  const text = n % 7 === 0 ? `Edit skill-${i} by hand\n` : message(`skill(patch): skill-${i}`, { action: 'patch', skills: [`skill-${i}`] });
  return { text, ops };
}

function mainOps(g: Generator, n: number): { text: string; ops: string } {
  if (n % 1000 === 0) {
    const ops = Array.from(
      { length: 300 },
      (_, k) => `M 100644 inline ${folder(k * 2 + 1, false)}/references/bulk.md\n${data(`bulk ${n}\n`)}`,
    );
    return { text: `Reformat every reference (${n})\n`, ops: ops.join('') };
  }
  if (n % 25 === 0) {
    const i = ((n * 31) % (skillCount / 2)) * 2;
    const to = !g.archived.has(i);
    if (to) g.archived.add(i);
    else g.archived.delete(i);
    const trailers = { action: to ? ('archive' as const) : ('restore' as const), skills: [`skill-${i}`], actor: 'curator' as const };
    return {
      text: message(`skill(${to ? 'archive' : 'restore'}): skill-${i}`, trailers),
      ops: `D ${folder(i, !to)}\nM 100644 inline ${folder(i, to)}/SKILL.md\n${data(skillText(i, n))}`,
    };
  }
  return patchOps(n);
}

/** Writes the repository; `commits` is approximate (rounds are whole). Returns its folder. */
export function generateHistoryRepo(commits: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-bench-log-'));
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { env: gitEnv });
  const g: Generator = { chunks: [], mark: 0, time: start, archived: new Set() };
  let tip: number | null = null;
  const config = `M 100644 inline .skillgarden/config.yaml\n${data('skills_dir: skills\n')}`;
  for (let i = 0; i < skillCount; i++) {
    const text = message(`skill(create): skill-${i}`, {
      action: 'create',
      skills: [`skill-${i}`],
      source: i % 2 ? 'background' : 'foreground',
    });
    tip = emit(
      g,
      'refs/heads/main',
      text,
      `${i === 0 ? config : ''}M 100644 inline ${folder(i, false)}/SKILL.md\n${data(skillText(i, i))}`,
      tip,
    );
  }
  let n = skillCount;
  while (g.mark < commits) {
    // A round: four commits on a topic branch and four on main, interleaved in time, then the merge.
    let topic: number | null = null;
    const replay: string[] = [];
    for (let j = 0; j < 4; j++) {
      const side = patchOps(n++);
      topic = emit(g, 'refs/heads/topic', side.text, side.ops, topic ?? tip);
      replay.push(side.ops);
      const own = mainOps(g, n++);
      tip = emit(g, 'refs/heads/main', own.text, own.ops, tip);
    }
    tip = emit(g, 'refs/heads/main', `Merge branch 'topic-${n}'\n`, replay.join(''), tip, topic as number);
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: g.chunks.join(''), env: gitEnv, maxBuffer: 1 << 30 });
  execFileSync('git', ['branch', '-q', '-D', 'topic'], { cwd: dir, env: gitEnv });
  execFileSync('git', ['reset', '-q', '--hard', 'main'], { cwd: dir, env: gitEnv });
  mkdirSync(join(dir, '.git', 'info'), { recursive: true });
  writeFileSync(join(dir, '.git', 'info', 'exclude'), '');
  return dir;
}
