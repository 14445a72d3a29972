import { readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import type { Finding } from '../core/findings.js';
import { fixableCodes, planSkillFix, type SkillFixPlan } from '../core/fix/plan-fix.js';
import { buildCommitMessage } from '../core/ledger/trailers.js';
import { renderUnifiedDiff } from '../core/report/render-diff.js';
import { decodeSkillBytes } from '../core/skill/index.js';
import type { Ledger } from '../ledger/ledger.js';

export interface FixOptions {
  repoDir: string;
  /** Folder the findings' paths are relative to. */
  cwd: string;
  ledger: Ledger;
  findings: readonly Finding[];
  /** Show the diffs, commit nothing. */
  dryRun?: boolean;
}

export interface FileFix {
  /** Repository-relative path. */
  path: string;
  skill: string;
  fixes: SkillFixPlan['fixes'];
  diff: string;
}

export interface FixResult {
  fixed: FileFix[];
  /** Files with fixable findings left alone, and why (uncommitted edits, outside the repository). */
  skipped: { path: string; reason: string }[];
  /** The one commit holding every fix; undefined on a dry run or when nothing needed fixing. */
  commit: string | undefined;
}

/**
 * `validate --fix`: repairs what can be repaired mechanically (fix/plan-fix.ts)
 * in every SKILL.md a fixable finding names, as one `edit` commit. A file with
 * uncommitted changes is skipped: the commit must hold the fix and nothing else.
 */
export async function runFix(options: FixOptions): Promise<FixResult> {
  const files = [
    ...new Set(options.findings.filter((f) => (fixableCodes as readonly string[]).includes(f.code)).map((f) => f.file)),
  ].sort();
  const fixed: FileFix[] = [];
  const skipped: FixResult['skipped'] = [];
  const changes: { path: string; content: string }[] = [];
  for (const file of files) {
    const absolute = resolve(options.cwd, file);
    const path = toPosix(relative(options.repoDir, absolute));
    if (path === '' || path.startsWith('..') || isAbsolute(path)) {
      skipped.push({ path: file, reason: 'outside the repository: fix it there' });
      continue;
    }
    const bytes = readFileSync(absolute);
    const committed = await options.ledger.readFile(path);
    if (!committed || Buffer.compare(Buffer.from(committed), bytes) !== 0) {
      skipped.push({
        path,
        reason: committed ? 'has uncommitted changes: commit or stash them, then run --fix again' : 'is not committed yet: commit it first',
      });
      continue;
    }
    const text = decodeSkillBytes(bytes, path).text;
    const folder = basename(dirname(absolute));
    const plan = planSkillFix({ file: path, text, folder });
    if (plan.fixes.length === 0) continue;
    fixed.push({ path, skill: folder, fixes: plan.fixes, diff: renderUnifiedDiff(path, text, plan.text) });
    changes.push({ path, content: plan.text });
  }
  if (fixed.length === 0 || options.dryRun) return { fixed, skipped, commit: undefined };
  const skills = [...new Set(fixed.map((f) => f.skill))].sort();
  const codes = [...new Set(fixed.flatMap((f) => f.fixes.map((x) => x.code.replace('skill/', ''))))].sort();
  const message = buildCommitMessage({
    subject: `skill(edit): ${shorten(skills.join(', '))} — validate --fix: ${codes.join(', ')}`,
    body: fixed.map((f) => `${f.path}: ${f.fixes.map((x) => x.description).join('; ')}`).join('\n'),
    trailers: { action: 'edit', skills, actor: 'user', reverts: [] },
  });
  try {
    const result = await options.ledger.commit({ message, changes });
    return { fixed, skipped, commit: result.commit };
  } catch (error) {
    throw new SkillgardenError('validate/fix-failed', `validate --fix could not commit its changes: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function shorten(text: string): string {
  return text.length <= 60 ? text : `${text.slice(0, 59)}…`;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}
