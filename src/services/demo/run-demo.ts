import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import git from 'isomorphic-git';
import type { DetectedPattern } from '../../core/patterns/index.js';
import { renderPatternsMarkdown } from '../../core/patterns/index.js';
import { renderPlansMarkdown } from '../../core/consolidate/index.js';
import { renderLogText } from '../../core/ledger/render-log.js';
import { renderRunMarkdown } from '../../core/report/render-run.js';
import type { RunReport } from '../../core/report/run-report.js';
import type { FileChange } from '../../ledger/ledger.js';
import { openLedger } from '../../ledger/open-ledger.js';
import { readLog } from '../../ledger/log.js';
import { runCurator } from '../curator/run-curator.js';
import { createSkill, pinSkill, type ManageContext } from '../manage/index.js';
import { bumpUsage, flushUsage } from '../usage.js';
import { demoCronFile, demoDays, demoSkills, demoTranscript, type DemoSkill } from './scenario.js';

const bundledSkillsDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'skills');
const dayMs = 86_400_000;

export interface DemoResult {
  dir: string;
  reports: RunReport[];
  /** REPORT.md of the last run, with its patterns section. */
  markdown: string;
  log: string;
}

/**
 * The main job on a bundled demo library: a temporary repository (embedded
 * Git, no server) holding the bundled skills plus skills an agent wrote over
 * 120 simulated days, with their usage; then two curator runs, a month apart.
 */
export async function runDemo(options: { now: Date; dir?: string; onStep?: (line: string) => void }): Promise<DemoResult> {
  const step = options.onStep ?? (() => undefined);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'skillgarden-demo-'));
  const start = new Date(options.now.getTime() - demoDays * dayMs);
  const at = (day: number) => new Date(start.getTime() + day * dayMs + 10 * 3_600_000);
  let clock = at(0);
  const reports: RunReport[] = [];
  await git.init({ fs, dir, defaultBranch: 'main' });
  await git.setConfig({ fs, dir, path: 'user.name', value: 'Demo Person' });
  await git.setConfig({ fs, dir, path: 'user.email', value: 'person@example.com' });
  // The demo runs on the embedded Git, as the README promises: it needs no git binary.
  const ledger = await openLedger(dir, { backend: 'isomorphic-git', now: () => clock });
  const ctx = (actor: 'user' | 'agent'): ManageContext => ({
    repoDir: dir,
    ledger,
    skillsDir: 'skills',
    profile: 'portable',
    actor,
    ...(actor === 'agent' ? { source: 'background' as const } : {}),
  });

  step(`creating the demo repository in ${dir}`);
  cpSync(bundledSkillsDir, join(dir, 'skills'), { recursive: true });
  const bundled = readdirSync(join(dir, 'skills')).filter((n) => existsSync(join(dir, 'skills', n, 'SKILL.md')));
  const initial: Record<string, string> = {
    '.skillgarden/bundled.txt': `${bundled.join('\n')}\n`,
    '.skillgarden/config.yaml': 'references:\n  - "cron/*.yaml"\ntranscripts:\n  - "transcripts/*.jsonl"\nconsolidate: true\n',
    [demoCronFile.path]: demoCronFile.text,
  };
  await ledger.commit({
    message: 'Import the bundled skill library\n',
    changes: [...filesUnder(dir, 'skills'), ...Object.entries(initial).map(([path, content]) => ({ path, content }))],
  });

  step(`simulating ${demoDays} days: ${demoSkills.length} skills written by an agent, their use, a person's pin`);
  for (let day = 1; day <= demoDays; day++) {
    clock = at(day);
    for (const skill of demoSkills.filter((s) => s.createdDay === day)) {
      await createSkill(
        { ...ctx('agent'), message: `learned while working: ${skill.name}` },
        { name: skill.name, content: skillText(skill), ...(skill.category ? { category: skill.category } : {}) },
      );
    }
    for (const skill of demoSkills) {
      if (skill.usedDays.includes(day)) await bumpUsage(dir, 'agent-laptop', { skill: skill.name, kind: 'use', at: iso(clock) });
      if (skill.viewedDays?.includes(day)) await bumpUsage(dir, 'agent-laptop', { skill: skill.name, kind: 'view', at: iso(clock) });
      if (skill.pinnedDay === day) await pinSkill(ctx('user'), { name: skill.name });
    }
    if (day % 7 === 0) await flushUsage({ repoDir: dir, ledger, writer: 'agent-laptop', skillsDir: 'skills', now: clock });
    if (day === 100) {
      await ledger.commit({
        message: 'Add agent session transcripts\n',
        changes: [{ path: 'transcripts/sessions.jsonl', content: demoTranscript(at(60)) }],
      });
    }
    if (day === demoDays - 30) {
      await flushUsage({ repoDir: dir, ledger, writer: 'agent-laptop', skillsDir: 'skills', now: clock });
      step(`curator run on day ${day}`);
      reports.push((await runCurator({ repoDir: dir, now: clock, backend: 'isomorphic-git' })).report);
    }
  }
  clock = options.now;
  await flushUsage({ repoDir: dir, ledger, writer: 'agent-laptop', skillsDir: 'skills', now: clock });
  await ledger.close();
  step(`curator run on day ${demoDays}`);
  const final = await runCurator({ repoDir: dir, now: options.now, backend: 'isomorphic-git' });
  reports.push(final.report);
  const last = reports[reports.length - 1] as RunReport;
  const patterns = last.patterns as DetectedPattern[];
  const sections = [
    ...(patterns.length > 0 ? [renderPatternsMarkdown(patterns)] : []),
    ...(final.plans ? [renderPlansMarkdown(final.plans)] : []),
  ];
  const markdown = renderRunMarkdown(last, sections);
  const log = renderLogText(await readLog(dir, { limit: 25 }));
  return { dir, reports, markdown, log };
}

function skillText(skill: DemoSkill): string {
  return [
    '---',
    `name: ${skill.name}`,
    `description: ${JSON.stringify(skill.description)}`,
    '---',
    `# ${skill.name}`,
    '',
    ...skill.steps.map((s, i) => `${i + 1}. ${s}`),
    '',
  ].join('\n');
}

function filesUnder(root: string, folder: string): FileChange[] {
  const out: FileChange[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(join(root, path))) {
      const child = `${path}/${entry}`;
      if (statSync(join(root, child)).isDirectory()) walk(child);
      else
        out.push({
          path: relative(root, join(root, child)),
          content: readFileSync(join(root, child)),
          executable: (statSync(join(root, child)).mode & 0o111) !== 0,
        });
    }
  };
  walk(folder);
  return out;
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
