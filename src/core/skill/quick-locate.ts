import { indentOf } from '../registry/quick-frontmatter.js';
import type { FieldPath, Position } from './types.js';

/**
 * Positions of keys and values in frontmatter the quick reader
 * (core/registry/quick-frontmatter.ts) accepted: `key: value` lines, nested
 * blocks deeper in, `- item` lists, one-line flow lists, and strings that go
 * on over the lines below their key (plain or `>`/`|` blocks). On that
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
      i = skipDeeper(lines, i, indent);
      continue;
    }
    const nested = readNested(lines, indent, i);
    if (!nested) return undefined;
    map.set(key, { key: keyAt, value: nested.node });
    i = nested.end;
  }
  return { node: { at: { line: first.line, column: indent + 1 }, map }, end: i };
}

/** What an empty `key:` holds, as the quick reader reads it: a map or list deeper in, or a plain string on the lines below. */
function readNested(lines: readonly Line[], parent: number, start: number): { node: Node; end: number } | undefined {
  const next = lines[start];
  const indent = next ? indentOf(next.text) : 0;
  if (!next || indent <= parent) return undefined;
  const text = next.text.slice(indent);
  if (text.startsWith('- ')) return readList(lines, indent, start);
  if (keyPattern.test(text)) return readMap(lines, indent, start);
  return { node: { at: { line: next.line, column: indent + 1 } }, end: skipDeeper(lines, start + 1, parent) };
}

/** Past the further lines of a value that goes on below its key (a plain string's, a block scalar's). */
function skipDeeper(lines: readonly Line[], start: number, parent: number): number {
  let i = start;
  while (i < lines.length && indentOf(lines[i]!.text) > parent) i++;
  return i;
}

function readList(lines: readonly Line[], indent: number, start: number): { node: Node; end: number } | undefined {
  const items: Node[] = [];
  let i = start;
  while (i < lines.length && indentOf(lines[i]!.text) >= indent) {
    const { text, line } = lines[i]!;
    if (indentOf(text) !== indent || !text.slice(indent).startsWith('- ')) return undefined;
    const rest = text.slice(indent + 2);
    if (keyPattern.test(rest)) {
      // A map opening on the item's line: its `- ` read as indentation, as the quick reader does.
      const opened = [...lines.slice(0, i), { text: `${' '.repeat(indent + 2)}${rest}`, line }, ...lines.slice(i + 1)];
      const map = readMap(opened, indent + 2, i);
      if (!map) return undefined;
      items.push(map.node);
      i = map.end;
      continue;
    }
    items.push(readValue(rest, line, indent + 3));
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
