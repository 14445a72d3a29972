import type { SchemaNode } from './skill-schema.js';

/** "a string or a list of strings": what a schema accepts, in an author's words. */
export function describeExpected(node: SchemaNode | undefined): string {
  if (node === undefined) return 'another type';
  if (node.anyOf !== undefined) return joinWords(node.anyOf.map(describeExpected), 'or');
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.length === 0) return 'another type';
  return joinWords(
    types.map((type) => describeType(type, node)),
    'or',
  );
}

function describeType(type: string, node: SchemaNode): string {
  switch (type) {
    case 'array':
      return node.items?.type === 'string' ? 'a list of strings' : 'a list';
    case 'object':
      return 'a mapping';
    case 'boolean':
      return 'true or false';
    case 'integer':
      return 'a whole number';
    case 'null':
      return 'empty';
    default:
      return `a ${type}`;
  }
}

export function joinWords(words: readonly string[], conjunction: 'and' | 'or'): string {
  const unique = [...new Set(words)];
  if (unique.length <= 1) return unique[0] ?? '';
  return `${unique.slice(0, -1).join(', ')} ${conjunction} ${unique[unique.length - 1]}`;
}

/** Levenshtein distance, small inputs only (frontmatter keys). */
function distance(a: string, b: string): number {
  let previous = new Int32Array(b.length + 1).map((_, index) => index);
  let current = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

// Known keys come from the schema, a fixed set: squash each once.
const squashed = new Map<string, string>();
const squash = (key: string): string => {
  let result = squashed.get(key);
  if (result === undefined) {
    result = key.toLowerCase().replace(/[-_\s]/g, '');
    if (squashed.size < 1000) squashed.set(key, result);
  }
  return result;
};

/** The known key a typo most likely meant (`allowed_tools` → `allowed-tools`), if any. */
export function suggestKey(key: string, known: Iterable<string>): string | undefined {
  const squashedKey = key.toLowerCase().replace(/[-_\s]/g, '');
  const lower = key.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    // Keys whose lengths differ by more than 2 cannot be within distance 2: skip the quadratic work.
    const close = key.length >= 4 && Math.abs(key.length - candidate.length) <= 2;
    const score = squash(candidate) === squashedKey ? 0 : close ? distance(lower, candidate) : 99;
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  return bestScore <= 2 ? best : undefined;
}

/** `Here.Now` → `here-now`: the nearest valid skill name. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
