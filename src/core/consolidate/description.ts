import { maxDescriptionLength } from '../rules/index.js';

/** Code-point aware cut at a word boundary, marked with an ellipsis. */
export function fitDescription(text: string, max = maxDescriptionLength): string {
  const points = [...text.replace(/\s+/g, ' ').trim()];
  if (points.length <= max) return points.join('');
  const head = points.slice(0, max - 1).join('');
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, '')}…`;
}

/** The first sentence of a description, without angle brackets (the spec forbids them), at most `max` characters. */
export function firstClause(description: string, max: number): string {
  const clean = description.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(clean)?.[1] ?? clean;
  return fitDescription(sentence.replace(/[.!?]$/, ''), max);
}

export interface DescribedMember {
  name: string;
  description: string;
}

/**
 * A description written for discovery: what the umbrella covers (one clause
 * per member) and when to use it. Members' clauses shrink until it fits;
 * past that, a cut at a word boundary.
 */
export function buildUmbrellaDescription(input: { topic: string; base?: string; members: readonly DescribedMember[] }): string {
  for (const size of [160, 100, 60, 0]) {
    const clauses = input.members.map((m) => (size === 0 ? m.name : `${m.name} (${firstClause(m.description, size)})`)).join('; ');
    const text =
      input.base !== undefined
        ? `${input.base.trim()} Also covers: ${clauses}.`
        : `${input.topic}: one class-level skill covering ${clauses}. Use it for any ${input.topic.toLowerCase()} task; each part is a section here, long notes are under references/.`;
    if ([...text].length <= maxDescriptionLength) return text;
  }
  const names = input.members.map((m) => m.name).join(', ');
  return fitDescription(
    input.base !== undefined ? `${input.base.trim()} Also covers: ${names}.` : `${input.topic}: one class-level skill covering ${names}.`,
  );
}
