import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { renderFindingsText } from '../../core/report/render-findings.js';
import type { SkillFileEntry } from '../../core/rules/index.js';
import { validateSkill } from '../../core/validate.js';
import { checkWritePolicy, resolveScanConfig } from '../../core/scan/index.js';
import { readConfig } from '../curator/read-library.js';
import type { ManageContext } from './context.js';

export interface ContentCheck {
  /** Repository-relative path of the SKILL.md being written. */
  file: string;
  folder: string;
  text: string;
  /** The SKILL.md before the change, when there was one: its existing errors are not the writer's fault. */
  before?: string;
  /** Paths relative to the skill folder after the change. */
  files: readonly string[];
}

/**
 * Refuses (writing nothing) when the new SKILL.md has errors it did not have
 * before. Returns the warnings, which the caller reports.
 */
export function checkSkillContent(ctx: ManageContext, check: ContentCheck): Finding[] {
  const files = new Map<string, SkillFileEntry>(check.files.map((path) => [path, { path, size: 0 }]));
  const run = (text: string) =>
    validateSkill({ file: check.file, content: text, folder: check.folder, profile: ctx.profile, files }).findings;
  const after = run(check.text);
  const known = new Set(check.before === undefined ? [] : run(check.before).filter(isError).map(key));
  const introduced = after.filter((f) => isError(f) && !known.has(key(f)));
  if (introduced.length > 0) {
    throw new SkillgardenError(
      'manage/invalid',
      `refused: ${check.file} would be invalid (nothing was written):\n${renderFindingsText(introduced, { skills: 1, errors: introduced.length, warnings: 0 }).trimEnd()}`,
      { data: { findings: introduced, exitCode: 1 } },
    );
  }
  return after.filter((f) => !isError(f));
}

const isError = (f: Finding) => f.severity === 'error';
const key = (f: Finding) => `${f.code}\u0000${f.message}`;

/**
 * The security scan on an agent's or the curator's write: the skill's files
 * as they would be after it. A blocked write throws `scan/blocked` with the
 * findings, and nothing is written; a person's writes are not gated.
 */
export async function checkWriteScan(
  ctx: ManageContext,
  skill: string,
  dir: string,
  pending: ReadonlyMap<string, string | Uint8Array | null>,
): Promise<void> {
  if (ctx.actor === 'user') return;
  const files: { path: string; text: string }[] = [];
  const existing = await ctx.ledger.listFiles(dir);
  const paths = new Set([...existing.map((f) => f.path.slice(dir.length + 1)), ...pending.keys()]);
  for (const path of paths) {
    const next = pending.has(path) ? pending.get(path) : await ctx.ledger.readFile(`${dir}/${path}`);
    if (next === null || next === undefined) continue;
    const bytes = typeof next === 'string' ? Buffer.from(next) : next;
    if (bytes.includes(0)) continue;
    files.push({ path, text: Buffer.from(bytes).toString('utf8') });
  }
  checkWritePolicy({
    skill,
    files,
    provenance: 'agent',
    config: resolveScanConfig(readConfig(ctx.repoDir).config.scan),
  });
}
