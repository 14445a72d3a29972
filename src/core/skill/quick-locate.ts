import type { FieldPath, Position } from './types.js';

/**
 * Positions of keys and values in frontmatter the quick reader
 * (core/registry/quick-frontmatter.ts) accepted: `key: value` lines, nested
 * blocks two spaces in, `- item` lists and one-line flow lists. On that
 * grammar a position is arithmetic on the line, so a finding is placed
 * without parsing the YAML a second time (on the real corpus the second parse
 * was most of the schema check's cost). Where the text is not that grammar
 * it answers undefined and the caller parses. A test checks every key, value
 * and item against the YAML parser's positions.
 */
export interface QuickLocator {
  locateKey: (path: FieldPath) => Position | undefined;
  locateValue: (path: FieldPath) => Position | undefined;
}

interface Node {
  at: Position;
  /** A map: each key's position and its value. */
  map?: Map<string, { key: Position; value: Node }>;
  /** A list: its items. */
  items?: Node[];
}

interface Line {
  text: string;
  line: number;
}

// The quick reader's key line, exactly.
const keyPattern = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;

export function buildQuickLocator(yaml: string, firstLine: number): QuickLocator | undefined {
  const lines: Line[] = [];
  yaml.split('\n').forEach((text, index) => {
    if (text.trim() !== '') lines.push({ text, line: firstLine + index });
  });
  if (lines.length === 0) return undefined;
  const root = readMap(lines, 0, 0);
  if (!root || root.end !== lines.length) return undefined;
  const rootNode = root.node;
  const whole = (): Position => rootNode.at;
  return {
    locateKey(path) {
      if (path.length === 0) return whole();
      return entryAt(rootNode, path)?.key;
    },
    locateValue(path) {
      if (path.length === 0) return whole();
      const parent = nodeAt(rootNode, path.slice(0, -1));
      const last = path[path.length - 1];
      if (parent?.items) return typeof last === 'number' ? parent.items[last]?.at : undefined;
      const entry = entryAt(rootNode, path);
      return entry?.value.at ?? entry?.key;
    },
  };
}

function entryAt(root: Node, path: FieldPath): { key: Position; value: Node } | undefined {
  const parent = nodeAt(root, path.slice(0, -1));
  const key = path[path.length - 1];
  return key === undefined ? undefined : parent?.map?.get(String(key));
}

function nodeAt(root: Node, path: FieldPath): Node | undefined {
  let node: Node | undefined = root;
  for (const key of path) {
    if (node?.map) node = node.map.get(String(key))?.value;
    else if (node?.items && typeof key === 'number') node = node.items[key];
    else return undefined;
  }
  return node;
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

function readMap(lines: readonly Line[], indent: number, start: number): { node: Node; end: number } | undefined {
  const map = new Map<string, { key: Position; value: Node }>();
  const first = lines[start];
  if (!first) return undefined;
  let i = start;
  while (i < lines.length && indentOf(lines[i]!.text) >= indent) {
    const { text, line } = lines[i]!;
    const match = keyPattern.exec(text.slice(indent));
    if (indentOf(text) !== indent || !match) return undefined;
    const key = match[1]!;
    const raw = match[2];
    i++;
    const keyAt = { line, column: indent + 1 };
    if (raw !== undefined && raw.trim() !== '') {
      map.set(key, { key: keyAt, value: readValue(raw, line, indent + key.length + 3) });
      continue;
    }
    const next = lines[i];
    if (!next || indentOf(next.text) !== indent + 2) return undefined;
    const nested = next.text.slice(indent + 2).startsWith('- ') ? readList(lines, indent + 2, i) : readMap(lines, indent + 2, i);
    if (!nested) return undefined;
    map.set(key, { key: keyAt, value: nested.node });
    i = nested.end;
  }
  return { node: { at: { line: first.line, column: indent + 1 }, map }, end: i };
}

function readList(lines: readonly Line[], indent: number, start: number): { node: Node; end: number } | undefined {
  const items: Node[] = [];
  let i = start;
  while (i < lines.length && indentOf(lines[i]!.text) >= indent) {
    const { text, line } = lines[i]!;
    if (indentOf(text) !== indent || !text.slice(indent).startsWith('- ')) return undefined;
    items.push(readValue(text.slice(indent + 2), line, indent + 3));
    i++;
  }
  return { node: { at: { line: lines[start]!.line, column: indent + 1 }, items }, end: i };
}

/** A scalar at `column`, or a one-line flow list there with each item where its text starts. */
function readValue(raw: string, line: number, column: number): Node {
  const text = raw.trimEnd();
  if (!text.startsWith('[') || !text.endsWith(']')) return { at: { line, column } };
  const items: Node[] = [];
  const inner = text.slice(1, -1);
  let offset = 0;
  if (inner !== '') {
    for (const part of inner.split(',')) {
      items.push({ at: { line, column: column + 1 + offset + indentOf(part) } });
      offset += part.length + 1;
    }
  }
  return { at: { line, column }, items };
}
