import { splitSkill } from '../skill/split.js';

/** What the registry reads of a SKILL.md: enough to build an entry. */
export interface QuickSkill {
  fields: Record<string, unknown>;
  body: string;
}

const keyPattern = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const nestedPattern = /^ {2}([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const itemPattern = /^ {2}- (.*)$/;
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
  const lines = yaml.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const fields: Record<string, unknown> = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    const match = keyPattern.exec(line);
    if (!match || Object.hasOwn(fields, match[1] as string) || specialKeys.test(match[1] as string)) return undefined;
    const raw = match[2];
    if (raw !== undefined && raw.trim() !== '') {
      const value = readScalar(raw);
      if (value === undefined) return undefined;
      fields[match[1] as string] = value;
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1] as string).startsWith('  ')) block.push(lines[++i] as string);
    const value = readBlock(block);
    if (value === undefined) return undefined;
    fields[match[1] as string] = value;
  }
  return fields;
}

/** A nested map or list of scalars, two spaces in; an empty block (a null value) is left to the YAML parser. */
function readBlock(lines: readonly string[]): unknown {
  if (lines.length === 0) return undefined;
  if (lines.every((l) => itemPattern.test(l))) {
    const items = lines.map((l) => readScalar((itemPattern.exec(l) as RegExpExecArray)[1] as string));
    return items.includes(undefined) ? undefined : items;
  }
  const map: Record<string, unknown> = {};
  for (const line of lines) {
    const match = nestedPattern.exec(line);
    if (!match || match[2] === undefined || Object.hasOwn(map, match[1] as string) || specialKeys.test(match[1] as string)) return undefined;
    const value = readScalar(match[2]);
    if (value === undefined) return undefined;
    map[match[1] as string] = value;
  }
  return map;
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
  if (/^[-?:,[\]{}#&*!|>%@`~.+\d]/.test(text) || / #|: |:$/.test(text)) return undefined;
  if (/^(?:null|Null|NULL|True|TRUE|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/.test(text)) return undefined;
  return text;
}
