import { parseDocument, type Document, type YAMLError } from 'yaml';
import { excerpt, finding, type Finding } from '../findings.js';
import { decodeSkillBytes } from './decode.js';
import { parseFallbackFields } from './fallback.js';
import { buildLocator, type Locator } from './locate.js';
import { splitSkill, type SkillSections } from './split.js';
import type { ParsedSkill } from './types.js';

/** Aliases beyond this count are refused: a "billion laughs" file must not expand. */
const maxAliasCount = 100;

export interface ParseSkillOptions {
  file: string;
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

  const document = parseDocument(sections.yaml, { prettyErrors: false, keepSourceTokens: false });
  const locator = buildLocator(document, sections.yaml, sections.yamlLine);
  const fatal = document.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
  for (const error of document.errors) findings.push(yamlErrorFinding(error, file, locator));
  for (const warning of document.warnings) findings.push(yamlWarningFinding(warning, file, locator));

  if (fatal.length > 0) {
    // As clients do: read what top-level `key: value` lines there are, so the skill still loads.
    const data = parseFallbackFields(sections.yaml);
    return assemble({ file, text, sections, data, document: undefined, findings, locator });
  }
  const data = toData(document, file, locator, findings);
  return assemble({ file, text, sections, data, document, findings, locator });
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
  const position = locator.at(error.pos[0]);
  const duplicate = error.code === 'DUPLICATE_KEY';
  return finding({
    code: duplicate ? 'skill/duplicate-key' : 'skill/yaml-syntax',
    severity: 'error',
    file,
    ...position,
    message: duplicate
      ? 'a frontmatter key appears twice; loaders disagree on which value wins'
      : `YAML syntax error: ${excerpt(firstLine(error.message), 160)}`,
    hint: duplicate
      ? 'Keep one of the two keys and delete the other.'
      : 'Quote values that contain `: ` or start with a special character (e.g. `description: "Use when: …"`).',
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
