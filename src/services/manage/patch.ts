import { SkillgardenError } from '../../core/errors.js';
import { excerpt } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import { closestLines, findMatches, replaceSpans } from '../../core/manage/fuzzy-match.js';
import { maxSupportFileBytes, supportPathProblem } from '../../core/manage/support-path.js';
import { checkSkillContent, checkWriteScan } from './check-content.js';
import { commitAction, type ManageContext, type ManageResult } from './context.js';
import { locateWritable, oidOf, readText, refusal, relativeFiles } from './skill-files.js';

export interface PatchInput {
  name: string;
  old: string;
  new: string;
  /** A file of the skill, relative to its folder; default SKILL.md. */
  file?: string;
  /** Replace every match instead of refusing when there are several. */
  all?: boolean;
}

/**
 * How often a patch is applied again to a file another write changed meanwhile, before it is refused: each
 * round lets at least one of the writers in, so this bounds how many may patch one file at once.
 */
const maxAttempts = 64;

/**
 * Replaces `old` with `new` in one file of a skill, finding `old` with the tolerant matcher chain.
 * A patch says what to replace, not which version it read: when another commit changed the file between
 * this read and this commit (agents patching distinct lines of one skill at once), it is applied again
 * to the new content, and refused only when `old` no longer matches there.
 */
export async function patchSkill(ctx: ManageContext, input: PatchInput): Promise<ManageResult> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await patchOnce(ctx, input, attempt > 1);
    } catch (error) {
      if (!(error instanceof SkillgardenError) || error.code !== 'ledger/conflict' || attempt >= maxAttempts) throw error;
      // A short random pause, so writers that collided do not collide again in step.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * Math.min(attempt, 4)));
    }
  }
}

async function patchOnce(ctx: ManageContext, input: PatchInput, again: boolean): Promise<ManageResult> {
  const relative = input.file ?? skillFileName;
  if (input.old === '')
    throw refusal(
      'manage/bad-patch',
      'the text to replace (old) is empty. To rewrite the whole SKILL.md use `manage edit`; to add a file use `manage write-file`.',
    );
  if (input.old === input.new) throw refusal('manage/bad-patch', 'old and new are the same text: the patch would change nothing.');
  if (relative !== skillFileName) {
    const problem = supportPathProblem(relative);
    if (problem) throw refusal('manage/bad-path', `cannot patch "${relative}": ${problem}.`);
  }
  const skill = await locateWritable(ctx, input.name);
  const path = `${skill.dir}/${relative}`;
  const text = await readText(ctx, skill, relative);
  const match = findMatches(text, input.old);
  if (!match) throw noMatch(path, text, input.old, again);
  if (match.spans.length > 1 && !input.all) {
    const lines = match.spans.map((s) => s.line).join(', ');
    throw refusal(
      'manage/ambiguous-match',
      `the text to replace matches ${match.spans.length} places in ${path} (lines ${lines}, ${match.matcher} match). ` +
        'Include more surrounding lines in old so it matches one place, or pass --all (replace_all) to replace every one.',
      { lines: match.spans.map((s) => s.line) },
    );
  }
  const patched = replaceSpans(text, match.spans, input.new);
  const details: Record<string, unknown> = {
    matcher: match.matcher,
    replacements: match.spans.length,
    lines: match.spans.map((s) => s.line),
  };
  if (relative === skillFileName) {
    details.warnings = checkSkillContent(ctx, { file: path, folder: skill.name, text: patched, before: text, files: relativeFiles(skill) });
  } else if (Buffer.byteLength(patched) > maxSupportFileBytes) {
    throw refusal('manage/too-large', `${path} would exceed 1 MiB after the patch; nothing was written.`);
  }
  const gate = checkWriteScan(ctx, skill.name, skill.dir, new Map([[relative, patched]]));
  const summary = `patch ${relative} (${match.spans.length} ${match.matcher} match${match.spans.length === 1 ? '' : 'es'})`;
  return commitAction(ctx, 'patch', [skill.name], summary, [{ path, content: patched, expected: oidOf(skill, relative) }], details, gate);
}

/** An error that shows an agent where to look next, so it does not retry the same call. */
function noMatch(path: string, text: string, old: string, again: boolean) {
  const lines = text.split('\n');
  const closest = closestLines(text, old);
  const head = lines.slice(0, 8).map((line, i) => `  ${i + 1}: ${excerpt(line, 100)}`);
  const near = closest.map((c) => `  ${c.line}: ${excerpt(c.text, 100)}`);
  return refusal(
    'manage/no-match',
    [
      `the text to replace was not found in ${path}${again ? ', as another write changed it since this patch began' : ''} (tried exact, line-trimmed, whitespace-normalized, indentation-flexible, escape-normalized, trimmed-boundary, unicode-normalized and block-anchored matching).`,
      near.length ? `Closest lines:\n${near.join('\n')}` : 'No line shares a word with it.',
      `The file starts (${lines.length} lines):\n${head.join('\n')}`,
      'Copy old verbatim from the file as it is now (`skillgarden load NAME` shows it), or rewrite the file with `manage edit`.',
    ].join('\n'),
    { closest },
  );
}
