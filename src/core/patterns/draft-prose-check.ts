import { isDeepStrictEqual } from 'node:util';
import { parseSkill } from '../skill/index.js';
import { listTaskWords } from './task-words.js';

export type DraftProseCheck = { ok: true; text: string } | { ok: false; problems: string[] };

/** The bounds a rewritten draft stays within: a description fits the spec, a body neither shrinks to nothing nor balloons. */
export const draftProseBounds = { maxDescription: 1024, minDescription: 40, minBodyShare: 0.5, maxBodyShare: 3, maxText: 20_000 };

/** Folders a skill package holds files in: a draft is one SKILL.md, so any of them named is a claim of a file that is not there. */
const packagePath = /\b(?:references|scripts|assets|templates|examples)\/[\w.-]+/g;
/** Relative Markdown link targets (not web links, anchors or mail). */
const relativeLink = /\]\((?!https?:|#|mailto:)([^)\s]+)\)/g;

function codeSpans(text: string): string[] {
  return [...new Set([...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string))];
}

/** The trigger of a draft's description: what follows "Use when", up to its first comma, quotation or parenthesis. */
function readTrigger(description: string): string | undefined {
  return /\buse when\b([^,("]*)/i.exec(description)?.[1]?.trim();
}

/**
 * Whether a rewritten draft (an LLM's) may replace the deterministic one
 * (issue #15, "checked as in #6"): a valid skill; the name and every
 * frontmatter field but the description unchanged (the evidence in
 * `metadata` included); the description still says "Use when…" with the
 * words of the draft's trigger; every command and argument of the draft
 * (its code spans) kept; no file claimed that the draft does not have (it is
 * one SKILL.md); and the lengths within `draftProseBounds`. Pure.
 */
export function checkProsedDraft(original: string, rewritten: string, file = 'SKILL.md'): DraftProseCheck {
  const before = parseSkill(original, { file });
  const after = parseSkill(rewritten, { file });
  const problems: string[] = [];
  const errors = after.findings.filter((f) => f.severity === 'error');
  if (after.document === undefined || errors.length > 0)
    problems.push(`the frontmatter is not valid YAML${errors[0] ? ` (${errors[0].message})` : ''}`);
  if (after.fields.name !== before.fields.name)
    problems.push(`the name changed from ${String(before.fields.name)} to ${String(after.fields.name)}`);
  const { description: oldDescription, ...oldRest } = before.fields;
  const { description: newDescription, ...newRest } = after.fields;
  if (!isDeepStrictEqual(oldRest, newRest))
    problems.push('frontmatter other than the description changed (the metadata holds the evidence)');
  const description = typeof newDescription === 'string' ? newDescription : '';
  if (description.length > draftProseBounds.maxDescription)
    problems.push(`the description is ${description.length} characters, over ${draftProseBounds.maxDescription}`);
  if (description.length < draftProseBounds.minDescription) problems.push('the description is too short to say what the skill does');
  const trigger = readTrigger(typeof oldDescription === 'string' ? oldDescription : '');
  if (trigger !== undefined) {
    const lower = description.toLowerCase();
    const lost = listTaskWords(trigger).filter((w) => !lower.includes(w));
    if (!/\buse when\b/i.test(description) || lost.length > 0)
      problems.push(`the description dropped the trigger "Use when ${trigger}"${lost.length > 0 ? ` (missing: ${lost.join(', ')})` : ''}`);
  }
  const lostSpans = codeSpans(before.body).filter((span) => !rewritten.includes(span));
  if (lostSpans.length > 0)
    problems.push(
      `commands or arguments of the steps are gone: ${lostSpans
        .slice(0, 5)
        .map((s) => `\`${s}\``)
        .join(', ')}`,
    );
  const claimed = [
    ...[...rewritten.matchAll(packagePath)].map((m) => m[0]),
    ...[...rewritten.matchAll(relativeLink)].map((m) => m[1] as string),
  ].filter((path) => !original.includes(path));
  if (claimed.length > 0) problems.push(`names files the draft does not have: ${[...new Set(claimed)].slice(0, 5).join(', ')}`);
  const share = after.body.length / Math.max(1, before.body.length);
  if (share < draftProseBounds.minBodyShare || share > draftProseBounds.maxBodyShare || rewritten.length > draftProseBounds.maxText)
    problems.push(
      `the body is ${share.toFixed(1)} times the draft's length, outside ${draftProseBounds.minBodyShare}–${draftProseBounds.maxBodyShare}`,
    );
  return problems.length > 0 ? { ok: false, problems } : { ok: true, text: rewritten };
}
