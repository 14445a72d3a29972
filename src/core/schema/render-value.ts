import { excerpt } from '../findings.js';
import type { FieldPath } from './types.js';

/** "a list", "a number", … : what a YAML value is, in the words a SKILL.md author uses. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'an empty value (null)';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Date) return 'a date';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
    case 'bigint':
      return 'a number';
    case 'object':
      return 'a mapping';
    default:
      return typeof value;
  }
}

/** String(x) that cannot throw (null-prototype objects have no toString). */
export function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

const budget = 80;

/** A short YAML-flow rendering of a value, for echoing user input in a message. */
export function renderValue(value: unknown): string {
  const parts: string[] = [];
  let used = 0;
  const push = (text: string): boolean => {
    parts.push(text);
    used += text.length;
    return used <= budget;
  };
  const walk = (node: unknown): boolean => {
    if (Array.isArray(node))
      return walkEntries(
        '[',
        ']',
        node.map((item) => [undefined, item]),
      );
    if (node instanceof Date) return push(Number.isNaN(node.getTime()) ? 'Invalid Date' : node.toISOString().slice(0, 10));
    if (node !== null && typeof node === 'object') return walkEntries('{', '}', Object.entries(node));
    return push(node === null || node === undefined ? 'null' : safeString(node));
  };
  const walkEntries = (open: string, close: string, entries: [string | undefined, unknown][]): boolean => {
    if (!push(open)) return false;
    for (const [index, [key, item]] of entries.entries()) {
      if (index > 0 && !push(', ')) return false;
      if (key !== undefined && !push(`${key}: `)) return false;
      if (!walk(item)) return false;
    }
    return push(close);
  };
  walk(value);
  return excerpt(parts.join(''), budget);
}

/** `metadata.hermes.tags[0]`: a path as a reader of the YAML would name it. */
export function renderPath(path: FieldPath): string {
  let label = '';
  for (const segment of path) {
    label += typeof segment === 'number' ? `[${segment}]` : label === '' ? segment : `.${segment}`;
  }
  return label === '' ? 'frontmatter' : excerpt(label, budget);
}
