import { isMap, isPair, isScalar, isSeq, LineCounter, type Document, type Node, type Pair } from 'yaml';
import type { FieldPath, Position } from './types.js';

export interface Locator {
  locateKey: (path: FieldPath) => Position | undefined;
  locateValue: (path: FieldPath) => Position | undefined;
  /** Maps an offset in the YAML text to a position in the file. */
  at(offset: number): Position;
}

/** Builds position lookups for a YAML document that starts at `firstLine` of the file. */
export function buildLocator(document: Document.Parsed | undefined, yaml: string, firstLine: number): Locator {
  const counter = new LineCounter();
  counter.addNewLine(0);
  for (let i = yaml.indexOf('\n'); i >= 0; i = yaml.indexOf('\n', i + 1)) counter.addNewLine(i + 1);
  const at = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line: line + firstLine - 1, column: col };
  };
  const rangeOf = (node: Node | null | undefined) => (node?.range ? at(node.range[0]) : undefined);
  return {
    at,
    locateKey(path) {
      if (!document) return undefined;
      if (path.length === 0) return rangeOf(document.contents) ?? { line: firstLine, column: 1 };
      const pair = findPair(document.contents, path);
      return pair && isScalar(pair.key) ? rangeOf(pair.key) : undefined;
    },
    locateValue(path) {
      if (!document) return undefined;
      if (path.length === 0) return rangeOf(document.contents) ?? { line: firstLine, column: 1 };
      const parent = findNode(document.contents, path.slice(0, -1));
      const last = path[path.length - 1];
      if (isSeq(parent) && typeof last === 'number') return rangeOf(parent.items[last] as Node | undefined);
      const pair = findPair(document.contents, path);
      return rangeOf(pair?.value as Node | undefined) ?? rangeOf(pair?.key as Node | undefined);
    },
  };
}

export function findPair(root: unknown, path: FieldPath): Pair | undefined {
  const parent = findNode(root, path.slice(0, -1));
  const key = path[path.length - 1];
  if (!isMap(parent) || key === undefined) return undefined;
  return parent.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(key));
}

export function findNode(root: unknown, path: FieldPath): unknown {
  let node = root;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(key));
      node = pair?.value;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
    } else {
      return undefined;
    }
  }
  return node;
}
