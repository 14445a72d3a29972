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
 * Reads the common, simple frontmatter (flat `key: value` lines, plain or
 * one-line quoted strings, true/false, and one level of nested maps or lists
 * of such values) without a YAML parser: ~20× faster, which is what makes a
 * cold load of 10,000 skills fit in a second. Anything else (numbers, nulls,
 * anchors, block scalars, escapes, comments after values, BOM, CRLF) returns
 * undefined and the caller uses the full parser. Where it answers, it agrees
 * with the YAML parser (a property test checks this).
 */
export function parseQuickSkill(text: string): QuickSkill | undefined {
  if (text.includes('\r') || text.startsWith('\uFEFF')) return undefined;
  const sections = splitSkill(text);
  if (sections.frontmatter !== 'ok') return undefined;
  const fields = parseQuickFrontmatter(sections.yaml);
  return fields && { fields, body: sections.body };
}

export function parseQuickFrontmatter(yaml: string): Record<string, unknown> | undefined {
  const lines = yaml.split('\n').filter((line) => line.trim() !== '');
  const map = readMap(lines, 0);
  return map && map.end === lines.length ? map.value : undefined;
}

type Read<T> = { value: T; end: number } | undefined;
const maxDepth = 4;

/** A block map at exactly `indent` spaces, from `lines[start]` until the indentation drops. */
function readMap(lines: readonly string[], indent: number, start = 0): Read<Record<string, unknown>> {
  const map: Record<string, unknown> = {};
  let i = start;
  while (i < lines.length && indentOf(lines[i] as string) >= indent) {
    const line = lines[i] as string;
    const match = keyPattern.exec(line.slice(indent));
    if (indentOf(line) !== indent || !match) return undefined;
    const key = match[1] as string;
    if (Object.hasOwn(map, key) || specialKeys.test(key)) return undefined;
    const raw = match[2];
    i++;
    if (raw !== undefined && raw.trim() !== '') {
      const value = readValue(raw);
      if (value === undefined) return undefined;
      map[key] = value;
      continue;
    }
    // An empty value opens a nested block two spaces in; an empty block (a null) is left to the YAML parser.
    const nested =
      indent / 2 < maxDepth && i < lines.length && indentOf(lines[i] as string) === indent + 2
        ? readNested(lines, indent + 2, i)
        : undefined;
    if (!nested) return undefined;
    map[key] = nested.value;
    i = nested.end;
  }
  return { value: map, end: i };
}

function readNested(lines: readonly string[], indent: number, start: number): Read<unknown> {
  if (!(lines[start] as string).slice(indent).startsWith('- ')) return readMap(lines, indent, start);
  const items: unknown[] = [];
  let i = start;
  while (i < lines.length && indentOf(lines[i] as string) >= indent) {
    const match = itemPattern.exec((lines[i] as string).slice(indent));
    if (indentOf(lines[i] as string) !== indent || !match) return undefined;
    const value = readValue(match[1] as string);
    if (value === undefined) return undefined;
    items.push(value);
    i++;
  }
  return { value: items, end: i };
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
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
