import type { FieldPath } from './types.js';

/** `/allowed-tools/2` → ['allowed-tools', 2]: numbers only where the data holds a list. */
export function pointerToPath(pointer: string, data: unknown): FieldPath {
  if (pointer === '') return [];
  const path: (string | number)[] = [];
  let node = data;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      const index = Number(segment);
      path.push(index);
      node = node[index];
    } else {
      path.push(segment);
      node = node !== null && typeof node === 'object' ? Object.getOwnPropertyDescriptor(node, segment)?.value : undefined;
    }
  }
  return path;
}

/** The value at path, read through own properties only. */
export function valueAt(data: unknown, path: FieldPath): unknown {
  let node = data;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Object.getOwnPropertyDescriptor(node, String(segment))?.value;
  }
  return node;
}
