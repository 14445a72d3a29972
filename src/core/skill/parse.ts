import { isMap, isScalar, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import { excerpt, finding, type Finding } from '../findings.js';
import { decodeSkillBytes } from './decode.js';
import { parseQuickFrontmatter } from '../registry/quick-frontmatter.js';
import { parseFallbackFields } from './fallback.js';
import { buildLocator, type Locator } from './locate.js';
import { buildQuickLocator, type QuickLocator } from './quick-locate.js';
import { splitSkill, type SkillSections } from './split.js';
import type { ParsedSkill } from './types.js';
import { formatCount } from '../format-count.js';

/** Aliases beyond this count are refused: a "billion laughs" file must not expand. */
const maxAliasCount = 100;

/**
 * Bounds checked before the YAML parser sees the frontmatter, in one linear
 * pass: a 1 MB frontmatter of 100,000 keys would otherwise take the parser
 * seconds (and its duplicate-key check grows with the square of the keys).
 * Real frontmatter is a few hundred bytes; the spec caps a description at
 * 1,024 characters.
 */
export const frontmatterLimits = { maxBytes: 64 * 1024, maxKeys: 1_000, maxDepth: 32 } as const;

/** Why the frontmatter is beyond the bounds, or undefined. Linear in its length. */
function boundsProblem(yaml: string): string | undefined {
  if (yaml.length > frontmatterLimits.maxBytes)
    return `the frontmatter is ${formatCount(yaml.length)} characters; the limit is ${formatCount(frontmatterLimits.maxBytes)}`;
  let keys = 0;
  let flow = 0;
  let deepest = 0;
  for (const line of yaml.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (/^[ \t-]*[^\s#][^:]*:(?:\s|$)/.test(line) && ++keys > frontmatterLimits.maxKeys)
      return `the frontmatter has more than ${formatCount(frontmatterLimits.maxKeys)} keys`;
    if (/[[\]{}]/.test(line)) {
      for (const c of line) {
        if (c === '[' || c === '{') deepest = Math.max(deepest, ++flow);
        else if (c === ']' || c === '}') flow = Math.max(0, flow - 1);
      }
    }
    // Two columns per level is the narrowest indentation anyone writes.
    deepest = Math.max(deepest, Math.floor(indent / 2));
    if (deepest > frontmatterLimits.maxDepth) return `the frontmatter nests deeper than ${frontmatterLimits.maxDepth} levels`;
  }
  return undefined;
}

/**
 * Frontmatter the quick reader built: plain objects, arrays, strings and
 * booleans, a few levels deep, no `__proto__` key, no alias, so no cycle.
 * The schema check need not copy it into such data first.
 */
const quickData = new WeakSet<object>();

/** Whether `data` is frontmatter the quick reader built (plain JSON-like data, as the schema check needs). */
export function isQuickData(data: unknown): boolean {
  return typeof data === 'object' && data !== null && quickData.has(data);
}

export interface ParseSkillOptions {
  file: string;
  /** Always run the YAML parser, even for frontmatter the quick reader answers (the tests' plain path). */
  fullParse?: boolean;
}

/** Parses SKILL.md bytes: decoding problems (non-UTF-8) become findings too. */
export function parseSkillBytes(bytes: Uint8Array, options: ParseSkillOptions): ParsedSkill {
  const decoded = decodeSkillBytes(bytes, options.file);
  const skill = parseSkill(decoded.text, options);
  skill.findings.unshift(...decoded.findings);
  return skill;
}

/** Parses SKILL.md text. Never throws: whatever is wrong is in `findings`. */
export function parseSkill(text: string, options: ParseSkillOptions): ParsedSkill {
  const { file } = options;
  const sections = splitSkill(text);
  const findings: Finding[] = [...layoutFindings(sections, file)];
  if (sections.frontmatter !== 'ok') {
    const locator = buildLocator(undefined, '', 1);
    return assemble({ file, text, sections, data: null, document: undefined, findings, locator });
  }

  const problem = boundsProblem(sections.yaml);
  if (problem) {
    const locator = buildLocator(undefined, sections.yaml, sections.yamlLine);
    findings.push(
      finding({
        code: 'skill/frontmatter-too-large',
        severity: 'error',
        file,
        line: sections.yamlLine,
        column: 1,
        message: `${problem}: not parsed`,
        hint: 'Keep the frontmatter to the fields a client reads (name, description, a few more); move data into references/.',
      }),
    );
    // The skill still has a name and description to report under, read as clients do.
    // Only the head: the fallback reader is linear, but 100,000 keys of it still cost a second.
    const data = pickFirstKeys(parseFallbackFields(sections.yaml.split('\n', 2_000).join('\n')), 100);
    return assemble({ file, text, sections, data, document: undefined, findings, locator });
  }
  // Most frontmatter is flat `key: value` lines: read those without the YAML parser (10,000 skills: ~1 s
  // of parsing saved), and parse only when someone asks for a position, which only a finding does.
  const quick = options.fullParse || text.includes('\r') ? undefined : parseQuickFrontmatter(sections.yaml);
  // An empty frontmatter is null to the parser, not an empty map.
  if (quick && Object.keys(quick).length > 0) {
    quickData.add(quick);
    return assembleQuick({ file, text, sections, data: quick, findings });
  }
  // Duplicate keys are found below with a set: the parser's own check is quadratic in the keys.
  const document = parseDocument(sections.yaml, { prettyErrors: false, keepSourceTokens: false, uniqueKeys: false });
  const locator = buildLocator(document, sections.yaml, sections.yamlLine);
  const fatal = document.errors;
  for (const error of document.errors) findings.push(yamlErrorFinding(error, file, locator));
  if (fatal.length === 0) for (const offset of findDuplicateKeys(document)) findings.push(duplicateKeyFinding(offset, file, locator));
  for (const warning of document.warnings) findings.push(yamlWarningFinding(warning, file, locator));

  if (fatal.length > 0) {
    // As clients do: read what top-level `key: value` lines there are, so the skill still loads.
    const data = parseFallbackFields(sections.yaml);
    return assemble({ file, text, sections, data, document: undefined, findings, locator });
  }
  const data = toData(document, file, locator, findings);
  return assemble({ file, text, sections, data, document, findings, locator });
}

/** The identifying fields, then a few more: a frontmatter of 100,000 keys must not become 100,000 schema findings. */
function pickFirstKeys(fields: Record<string, unknown>, count: number): Record<string, unknown> {
  const known = ['name', 'description', 'when_to_use'].filter((k) => k in fields).map((k) => [k, fields[k]] as const);
  return Object.fromEntries([...known, ...Object.entries(fields).slice(0, count)]);
}

/** Offsets of keys that repeat an earlier key of the same mapping (scalar keys; linear). */
function findDuplicateKeys(document: Document.Parsed): number[] {
  const offsets: number[] = [];
  visit(document, {
    Map(_key, map) {
      if (!isMap(map)) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const value = pair.key.value;
        if (seen.has(value)) offsets.push(pair.key.range?.[0] ?? 0);
        else seen.add(value);
      }
    },
  });
  return offsets;
}

function duplicateKeyFinding(offset: number, file: string, locator: Locator): Finding {
  return finding({
    code: 'skill/duplicate-key',
    severity: 'error',
    file,
    ...locator.at(offset),
    message: 'a frontmatter key appears twice; loaders disagree on which value wins',
    hint: 'Keep one of the two keys and delete the other.',
  });
}

function toData(document: Document.Parsed, file: string, locator: Locator, findings: Finding[]): unknown {
  try {
    return document.toJS({ maxAliasCount });
  } catch (error) {
    findings.push(
      finding({
        code: 'skill/yaml-alias-limit',
        severity: 'error',
        file,
        ...locator.at(0),
        message: `the frontmatter could not be expanded: ${error instanceof Error ? error.message : String(error)}`,
        hint: `Use at most ${maxAliasCount} YAML aliases (*name); write values out instead of referencing anchors.`,
      }),
    );
    return null;
  }
}

interface AssembleInput {
  file: string;
  text: string;
  sections: SkillSections;
  data: unknown;
  document: Document.Parsed | undefined;
  findings: Finding[];
  locator: Locator;
}

/**
 * The quick reader's data with the parser's positions, computed on first use:
 * the quick reader answers only for YAML the parser reads the same way with
 * no error or warning (a property test checks it), so nothing else differs.
 */
function assembleQuick(input: Omit<AssembleInput, 'document' | 'locator'>): ParsedSkill {
  let parsed: { document: Document.Parsed; locator: Locator } | undefined;
  const full = () => {
    if (!parsed) {
      const { yaml, yamlLine } = input.sections;
      const document = parseDocument(yaml, { prettyErrors: false, keepSourceTokens: false, uniqueKeys: false });
      parsed = { document, locator: buildLocator(document, yaml, yamlLine) };
    }
    return parsed;
  };
  // Positions from the lines themselves (no second parse), built when a finding first asks.
  let quick: QuickLocator | null | undefined;
  const locator = (): QuickLocator => {
    if (quick === undefined) quick = buildQuickLocator(input.sections.yaml, input.sections.yamlLine) ?? null;
    return quick ?? full().locator;
  };
  return {
    file: input.file,
    text: input.text,
    sections: input.sections,
    data: input.data,
    fields: input.data as Record<string, unknown>,
    body: input.sections.body,
    get document() {
      return full().document;
    },
    findings: input.findings,
    locateKey: (path) => locator().locateKey(path),
    locateValue: (path) => locator().locateValue(path),
  };
}

function assemble(input: AssembleInput): ParsedSkill {
  const { data, locator } = input;
  const isRecord = typeof data === 'object' && data !== null && !Array.isArray(data);
  return {
    file: input.file,
    text: input.text,
    sections: input.sections,
    data,
    fields: isRecord ? (data as Record<string, unknown>) : {},
    body: input.sections.body,
    document: input.document,
    findings: input.findings,
    locateKey: locator.locateKey,
    locateValue: locator.locateValue,
  };
}

function layoutFindings(sections: SkillSections, file: string): Finding[] {
  const out: Finding[] = [];
  if (sections.bom) {
    out.push(
      finding({
        code: 'skill/bom',
        severity: 'info',
        file,
        line: 1,
        column: 1,
        message: 'the file starts with a UTF-8 byte-order mark',
        hint: 'Some loaders do not expect a BOM before `---`; save without it.',
      }),
    );
  }
  if (sections.eol === '\r\n') {
    out.push(
      finding({
        code: 'skill/crlf',
        severity: 'info',
        file,
        line: 1,
        column: 1,
        message: 'the file uses CRLF line endings',
        hint: 'Prefer LF line endings (set `* text=auto eol=lf` in .gitattributes).',
      }),
    );
  }
  if (sections.frontmatter === 'missing') {
    out.push(
      finding({
        code: 'skill/frontmatter-missing',
        severity: 'error',
        file,
        line: 1,
        column: 1,
        message: 'no YAML frontmatter: the file must start with a `---` line',
        hint: 'Start the file with `---`, then `name:` and `description:` lines, then `---`, then the Markdown body.',
      }),
    );
  } else if (sections.frontmatter === 'unterminated') {
    out.push(
      finding({
        code: 'skill/frontmatter-unterminated',
        severity: 'error',
        file,
        line: 1,
        column: 1,
        message: 'the frontmatter opened on line 1 is never closed',
        hint: 'Add a line holding only `---` after the last frontmatter field.',
      }),
    );
  }
  return out;
}

function yamlErrorFinding(error: YAMLError, file: string, locator: Locator): Finding {
  return finding({
    code: 'skill/yaml-syntax',
    severity: 'error',
    file,
    ...locator.at(error.pos[0]),
    message: `YAML syntax error: ${excerpt(firstLine(error.message), 160)}`,
    hint: 'Quote values that contain `: ` or start with a special character (e.g. `description: "Use when: …"`).',
  });
}

function yamlWarningFinding(warning: YAMLError, file: string, locator: Locator): Finding {
  return finding({
    code: 'skill/yaml-warning',
    severity: 'warning',
    file,
    ...locator.at(warning.pos[0]),
    message: `YAML: ${excerpt(firstLine(warning.message), 160)}`,
    hint: 'Rewrite the value so that every YAML parser reads it the same way.',
  });
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
