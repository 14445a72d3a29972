import { safeString } from './render-value.js';

export type PlainDataResult = { ok: true; data: unknown } | { ok: false; reason: 'cycle' | 'too-deep' };

const maxDepth = 64;

/**
 * Copies parsed YAML into plain JSON-like data the validator can walk safely.
 * Keys are defined as own properties, so `__proto__` or `constructor` stay
 * ordinary keys and nothing inherited can satisfy `required`. YAML aliases can
 * build cycles (`&a [*a]`), which would send the validator into endless
 * recursion: they are reported instead.
 */
export function toPlainData(value: unknown): PlainDataResult {
  const ancestors = new Set<object>();
  let failure: 'cycle' | 'too-deep' | undefined;

  const copy = (node: unknown, depth: number): unknown => {
    if (failure !== undefined || node === null || typeof node !== 'object' || node instanceof Date) return node;
    if (ancestors.has(node)) return (failure = 'cycle');
    if (depth >= maxDepth) return (failure = 'too-deep');
    ancestors.add(node);
    const result = Array.isArray(node) ? node.map((item) => copy(item, depth + 1)) : copyObject(node, (item) => copy(item, depth + 1));
    ancestors.delete(node);
    return result;
  };

  const data = copy(value, 0);
  return failure === undefined ? { ok: true, data } : { ok: false, reason: failure };
}

function copyObject(node: object, copy: (item: unknown) => unknown): Record<string, unknown> {
  const entries: [unknown, unknown][] = node instanceof Map ? [...node.entries()] : Object.entries(node);
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    Object.defineProperty(result, safeString(key), { value: copy(item), enumerable: true, writable: true, configurable: true });
  }
  return result;
}
