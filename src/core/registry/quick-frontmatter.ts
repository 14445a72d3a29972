import { splitSkill } from '../skill/split.js';

/** What the registry reads of a SKILL.md: enough to build an entry. */
export interface QuickSkill {
  fields: Record<string, unknown>;
  body: string;
}

const keyPattern = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const itemPattern = /^- (.*)$/;
/** YAML 1.2 core-schema numbers (what the parser reads as a number rather than a string such as 1.0.0). */
const coreNumber = /^(?:[-+]?\d+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.\d+|\d+(?:\.\d*)?)(?:[eE][-+]?\d+)?)$/;
/** Keys YAML reads as something other than their text, or that would reach an object's prototype. */
const specialKeys = /^(?:__proto__|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;

/**
 * Reads the common, simple frontmatter (`key: value` lines, plain or one-line
 * quoted strings, true/false, plain strings over several lines, `>` and `|`
 * blocks of even lines, and nested maps or lists of such values at any
 * deeper indentation) without a YAML parser: ~20× faster, which is what makes
 * a cold load of 10,000 skills fit in a second. Anything else (numbers, nulls,
 * anchors, escapes, comments, blank or uneven lines inside a value, BOM, CRLF)
 * returns undefined and the caller uses the full parser. Where it answers, it
 * agrees with the YAML parser (a property test and the whole corpus check this).
 */
export function parseQuickSkill(text: string): QuickSkill | undefined {
  if (text.includes('\r') || text.startsWith('\uFEFF')) return undefined;
  const sections = splitSkill(text);
  if (sections.frontmatter !== 'ok') return undefined;
  const fields = parseQuickFrontmatter(sections.yaml);
  return fields && { fields, body: sections.body };
}

export function parseQuickFrontmatter(yaml: string): Record<string, unknown> | undefined {
  const lines = yaml.split('\n');
  const map = readMap(lines, 0, skipBlank(lines, 0), 0);
  return map && skipBlank(lines, map.end) === lines.length ? map.value : undefined;
}

type Read<T> = { value: T; end: number } | undefined;
const maxDepth = 4;
/** Block scalar headers read here: folded or literal, clipped or stripped (no keep, no explicit indentation). */
const blockHeader = /^[>|]-?$/;

/** The first non-blank line at or after `i` (lines.length when none). */
function skipBlank(lines: readonly string[], i: number): number {
  while (i < lines.length && (lines[i] as string).trim() === '') i++;
  return i;
}

/** Leading spaces (a tab is not indentation in YAML). */
export function indentOf(line: string): number {
  let n = 0;
  while (line.charCodeAt(n) === 32) n++;
  return n;
}

/** A block map at exactly `indent` spaces, from `lines[start]` until the indentation drops. */
function readMap(lines: readonly string[], indent: number, start: number, depth: number, first?: string): Read<Record<string, unknown>> {
  const map: Record<string, unknown> = {};
  let i = start;
  // `first`: the opening line of a list item's map, its `- ` read as indentation.
  const lineAt = (at: number) => (at === start && first !== undefined ? first : (lines[at] as string));
  while (i < lines.length && indentOf(lineAt(i)) >= indent) {
    const line = lineAt(i);
    const match = keyPattern.exec(line.slice(indent));
    if (indentOf(line) !== indent || !match) return undefined;
    const key = match[1] as string;
    if (Object.hasOwn(map, key) || specialKeys.test(key)) return undefined;
    const raw = match[2];
    const value =
      raw !== undefined && raw.trim() !== '' ? readInlineValue(lines, i, indent, raw) : readNested(lines, indent, i + 1, depth + 1);
    if (!value) return undefined;
    map[key] = value.value;
    i = skipBlank(lines, value.end);
  }
  return { value: map, end: i };
}

/** The value after `key: ` on line `at`: a scalar or flow list, a plain string continued below, or a block scalar. */
function readInlineValue(lines: readonly string[], at: number, indent: number, raw: string): Read<unknown> {
  if (blockHeader.test(raw)) return readBlockScalar(lines, at + 1, indent, raw);
  const value = readValue(raw);
  if (value === undefined) return undefined;
  // Only a plain string may go on over more-indented lines (a quoted one, a list or true/false there is the parser's).
  const plain = typeof value === 'string' && !/^["'[]/.test(raw);
  return plain ? readContinued(lines, at + 1, indent, value) : { value, end: at + 1 };
}

/** What an empty `key:` holds: a block map or list deeper in, or a plain string on the lines below. */
function readNested(lines: readonly string[], parent: number, start: number, depth: number): Read<unknown> {
  const first = lines[start];
  // An empty value (a null) is left to the YAML parser.
  if (first === undefined || depth > maxDepth || first.trim() === '') return undefined;
  const indent = indentOf(first);
  if (indent <= parent) return undefined;
  const text = first.slice(indent);
  if (text.startsWith('- ')) return readList(lines, indent, start, depth);
  if (keyPattern.test(text)) return readMap(lines, indent, start, depth);
  const value = /^["'[]/.test(text) ? undefined : readScalar(text);
  return typeof value === 'string' ? readContinued(lines, start + 1, parent, value) : undefined;
}

/** A block list at `indent`: each item a scalar or flow list, or a map opening on the item's line (`- key: value`). */
function readList(lines: readonly string[], indent: number, start: number, depth: number): Read<unknown[]> {
  const items: unknown[] = [];
  let i = start;
  while (i < lines.length && indentOf(lines[i] as string) >= indent) {
    const match = itemPattern.exec((lines[i] as string).slice(indent));
    if (indentOf(lines[i] as string) !== indent || !match) return undefined;
    const text = match[1] as string;
    const item = keyPattern.test(text)
      ? depth < maxDepth
        ? readMap(lines, indent + 2, i, depth + 1, `${' '.repeat(indent + 2)}${text}`)
        : undefined
      : { value: readValue(text), end: i + 1 };
    if (item?.value === undefined) return undefined;
    items.push(item.value);
    i = skipBlank(lines, item.end);
  }
  return { value: items, end: i };
}

/**
 * A plain string's further lines (deeper than the key at `parent`, none blank): each trimmed and joined with
 * a space, as YAML folds them. A line that could be read another way (a key, a comment, an indicator first) is refused.
 */
function readContinued(lines: readonly string[], start: number, parent: number, first: string): Read<string> {
  let value = first;
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    const indent = indentOf(line);
    if (indent <= parent || line.trim() === '') break;
    const text = line.slice(indent).replace(/ +$/, '');
    if (/^[-?:,[\]{}#&*!|>%@`]/.test(text) || / #|: |:$|\t/.test(text)) return undefined;
    value += ` ${text}`;
  }
  return { value, end: i };
}

/** A `>` or `|` block whose lines share one indentation deeper than `parent`, with no blank line among them. */
function readBlockScalar(lines: readonly string[], start: number, parent: number, header: string): Read<string> {
  const first = lines[start];
  const indent = first === undefined ? 0 : indentOf(first);
  if (first === undefined || indent <= parent || first.trim() === '') return undefined;
  const content: string[] = [];
  let i = start;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '' || indentOf(line) <= parent) break;
    // Deeper lines (kept apart when folded), tabs and trailing spaces: the parser's.
    if (indentOf(line) !== indent || /[\t ]$|\t/.test(line)) return undefined;
    content.push(line.slice(indent));
  }
  // Blank lines after it that hold spaces may be content (spaces past the indentation): the parser's.
  for (let j = i; j < lines.length && (lines[j] as string).trim() === ''; j++) if (lines[j] !== '') return undefined;
  const joined = content.join(header.startsWith('>') ? ' ' : '\n');
  return { value: header.endsWith('-') ? joined : `${joined}\n`, end: i };
}

/** A scalar, or a one-line flow list of scalars (`[a, "b c"]`). */
function readValue(raw: string): unknown {
  const text = raw.trimEnd();
  if (!text.startsWith('[') || raw.startsWith(' ')) return readScalar(raw);
  if (!text.endsWith(']')) return undefined;
  const inner = text.slice(1, -1);
  if (inner.trim() === '') return inner === '' ? [] : undefined;
  const items = inner.split(',').map((item) => item.trim());
  // In a flow list, plain scalars must not hold flow indicators, and quotes might hide a comma: leave those to the parser.
  if (items.some((item) => item === '' || /[[\]{}:#]/.test(item) || (/["']/.test(item) && !/^(["'])[^"'\\]*\1$/.test(item))))
    return undefined;
  const values = items.map((item) => readScalar(item));
  return values.includes(undefined) ? undefined : values;
}

/** A string or boolean, when the text is one YAML cannot read any other way; undefined otherwise. */
function readScalar(raw: string): string | boolean | undefined {
  const text = raw.trimEnd();
  if (text === '' || raw.startsWith(' ') || raw.includes('\t')) return undefined;
  if (text === 'true') return true;
  if (text === 'false') return false;
  const quote = text[0];
  if (quote === '"') {
    const inner = text.slice(1, -1);
    return text.length >= 2 && text.endsWith('"') && !/["\\]/.test(inner) ? inner : undefined;
  }
  if (quote === "'") {
    const inner = text.slice(1, -1);
    return text.length >= 2 && text.endsWith("'") && !inner.replace(/''/g, '').includes("'") ? inner.replace(/''/g, "'") : undefined;
  }
  // Plain scalars: nothing YAML would read as a number, null, boolean variant, indicator, comment or key.
  if (/^[-?:,[\]{}#&*!|>%@`~.+]/.test(text) || / #|: |:$/.test(text) || coreNumber.test(text)) return undefined;
  if (/^(?:null|Null|NULL|True|TRUE|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(text)) return undefined;
  return text;
}
