import { isDeepStrictEqual } from 'node:util';
import { listHeadings, listParagraphs } from './markdown.js';

/**
 * What a model's rewrite of a deterministic SKILL.md may not do, whatever it is asked: add or change frontmatter
 * beyond the description (an `allowed-tools: "Bash(*)"` the plan never had), or lose any heading or paragraph of the
 * draft — counted, so a paragraph two members' sections both hold must be there twice: one member's copy replaced
 * (`kubectl delete namespace production` for its rollback step) or dropped is not kept because a sibling's copy is.
 */
export function checkModelRewrite(
  draft: { fields: Readonly<Record<string, unknown>>; body: string },
  model: { fields: Readonly<Record<string, unknown>>; body: string },
): string[] {
  return [
    ...checkFrontmatter(draft.fields, model.fields),
    ...checkKept('heading', listHeadings(draft.body), listHeadings(model.body)),
    ...checkKept('paragraph', listParagraphs(draft.body), listParagraphs(model.body)),
  ];
}

/** Dotted paths of every key in a YAML mapping, nested mappings included. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keyPaths(inner, `${prefix}${key}.`)]);
}

/** The description is the model's to rewrite; `metadata.absorbed` is set from the diff afterwards. Nothing else moves. */
function checkFrontmatter(draft: Readonly<Record<string, unknown>>, model: Readonly<Record<string, unknown>>): string[] {
  const known = new Set(keyPaths(draft));
  const added = keyPaths(model).filter((key) => !known.has(key) && key !== 'metadata.absorbed');
  if (added.length > 0) return [`adds frontmatter the plan does not have: ${added.slice(0, 5).join(', ')}`];
  const changed = Object.keys(draft).filter(
    (key) => key !== 'description' && key !== 'metadata' && !isDeepStrictEqual(draft[key], model[key]),
  );
  const { absorbed: _draftAbsorbed, ...draftMeta } = asRecord(draft.metadata);
  const { absorbed: _modelAbsorbed, ...modelMeta } = asRecord(model.metadata);
  if (!isDeepStrictEqual(draftMeta, modelMeta)) changed.push('metadata');
  return changed.length > 0 ? [`changes frontmatter other than the description: ${changed.join(', ')}`] : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Each part of the draft as many times as the draft has it, found whole or inside a (longer) part of the rewrite. */
function checkKept(kind: 'heading' | 'paragraph', draft: readonly string[], model: readonly string[]): string[] {
  const wanted = new Map<string, number>();
  for (const part of draft) wanted.set(part, (wanted.get(part) ?? 0) + 1);
  const corpus = model.join('\n');
  const problems: string[] = [];
  for (const [part, count] of wanted) {
    const found = countOccurrences(corpus, part);
    if (found >= count) continue;
    problems.push(
      found === 0
        ? `drops the ${kind} "${part.slice(0, 80)}"`
        : `keeps the ${kind} "${part.slice(0, 80)}" ${found} time(s) of ${count}: one member's own copy is replaced or dropped`,
    );
  }
  return problems;
}

function countOccurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + part.length)) count++;
  return count;
}
