import { skillFileName } from '../layout.js';
import type { SkillFileEntry } from '../rules/index.js';
import { parseSkill } from '../skill/index.js';
import type { ParsedSkill } from '../skill/types.js';
import { validateParsedSkill, validateSkill, type SkillValidation, type ValidateSkillInput } from '../validate.js';
import type { SkillFeatures } from './features.js';
import type { FileTable } from './package.js';
import type { CuratedSkill } from './types.js';

/** A file's size in bytes, as validate's size rules count it (a string is counted as its UTF-8 bytes). */
export function sizeOf(content: Uint8Array | string): number {
  return typeof content === 'string' ? utf8Length(content) : content.length;
}

/**
 * The length of `new TextEncoder().encode(text)`, counted without encoding:
 * a lone surrogate is encoded as U+FFFD, three bytes, like any other unit
 * of the Basic Multilingual Plane above U+07FF.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) {
      bytes += 1;
      continue;
    }
    bytes += 2;
    // A surrogate pair is four bytes for its two units (its trail adds nothing more); a lone surrogate is U+FFFD, three.
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return bytes;
}

type PortableInput = Required<Pick<ValidateSkillInput, 'file' | 'folder' | 'files'>> & { content: string };

/**
 * Portable validations of umbrella texts by their whole input, for one
 * planning run: the guard validates each umbrella the planner has just
 * validated with the same file, text, folder and file sizes, and validateSkill
 * is a function of those alone, so the planner's result is the guard's.
 * Any other input (an edited umbrella, other sizes) is validated afresh.
 */
export class PortableValidations {
  private readonly byContent = new Map<string, Array<{ file: string; folder: string; files: string; result: SkillValidation }>>();

  /** validateSkill under the portable profile, of a parse of the content when the caller has one. */
  validate(input: PortableInput, parsed?: ParsedSkill): SkillValidation {
    const files = filesKey(input.files);
    const seen = this.byContent.get(input.content);
    const hit = seen?.find((e) => e.file === input.file && e.folder === input.folder && e.files === files);
    if (hit) return hit.result;
    const portable = { file: input.file, folder: input.folder, profile: 'portable', files: input.files } as const;
    const result = parsed ? validateParsedSkill(parsed, portable) : validateSkill({ ...portable, content: input.content });
    if (seen) seen.push({ file: input.file, folder: input.folder, files, result });
    else this.byContent.set(input.content, [{ file: input.file, folder: input.folder, files, result }]);
    return result;
  }
}

/** The file entries in their order, as one string (paths hold no newline or NUL in a valid table, and the key spells each entry whole). */
function filesKey(files: ReadonlyMap<string, SkillFileEntry>): string {
  let key = '';
  for (const [path, entry] of files) key += `${JSON.stringify(path)}\0${JSON.stringify(entry.path)}\0${entry.size}\n`;
  return key;
}

/**
 * Why the umbrella is not a valid skill, or undefined when it is: no error
 * under the `portable` profile, and none under `spec` except on keys a member
 * already used (an umbrella may keep `paths` or `version`).
 */
export function checkUmbrellaValid(input: {
  name: string;
  dir: string;
  table: FileTable;
  members: readonly SkillFeatures[];
  validations?: PortableValidations;
}): string | undefined {
  return checkUmbrellaTable({
    ...input,
    members: input.members.map((m) => m.skill),
    usedKeys: new Set(input.members.flatMap((m) => Object.keys(m.parsed.fields))),
  });
}

/** As checkUmbrellaValid, from the members' packages. */
export function checkUmbrellaTable(input: {
  name: string;
  dir: string;
  table: ReadonlyMap<string, Uint8Array | string>;
  members: readonly CuratedSkill[];
  usedKeys?: ReadonlySet<string>;
  /** Where the portable validation is kept for the guard's check of the same umbrella. */
  validations?: PortableValidations;
}): string | undefined {
  const files = new Map<string, SkillFileEntry>();
  for (const [path, content] of input.table) if (path !== skillFileName) files.set(path, { path, size: sizeOf(content) });
  const file = `${input.dir}/${skillFileName}`;
  const raw = input.table.get(skillFileName) ?? '';
  const content = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  // One parse for both profiles: validateSkill is its parse followed by validateParsedSkill.
  const parsed = parseSkill(content, { file });
  const portableResult = input.validations
    ? input.validations.validate({ file, content, folder: input.name, files }, parsed)
    : validateParsedSkill(parsed, { file, folder: input.name, profile: 'portable', files });
  const portableErrors = portableResult.findings.filter((f) => f.severity === 'error');
  const tolerated = portableErrors.some((f) => f.code === 'skill/link-escapes') ? toleratedCodes(input.members) : new Set<string>();
  const portable = portableErrors.filter((f) => !tolerated.has(f.code));
  if (portable.length > 0)
    return `the umbrella ${input.name} would not be valid: ${portable.map((f) => `${f.code} at line ${f.line}: ${f.message}`).join('; ')}`;
  const used = input.usedKeys ?? new Set(input.members.flatMap((m) => Object.keys(parseSkill(m.text, { file: m.dir }).fields)));
  // The portable validation's parse of this very text (a memo's hit holds an equal one): no second YAML parse.
  const located = portableResult.skill;
  const allowedLines = new Set([...used].map((key) => located.locateKey([key])?.line).filter((line) => line !== undefined));
  const spec = validateParsedSkill(parsed, { file, folder: input.name, profile: 'spec', files }).findings.filter(
    (f) => f.severity === 'error' && !allowedLines.has(f.line) && !tolerated.has(f.code),
  );
  if (spec.length > 0)
    return `the umbrella ${input.name} would break the Agent Skills spec: ${spec.map((f) => `${f.code} at line ${f.line}: ${f.message}`).join('; ')}`;
  return undefined;
}

/**
 * Links from one skill to a sibling skill are errors for a portable skill, but
 * agents write them; an umbrella that keeps such a link is no worse than the
 * members that had it. Nothing else is tolerated.
 */
export function toleratedCodes(members: readonly CuratedSkill[]): Set<string> {
  const codes = new Set<string>();
  for (const member of members) {
    const folder = member.dir.split('/').at(-1) ?? member.name;
    const findings = validateSkill({ file: `${member.dir}/${skillFileName}`, content: member.text, folder, profile: 'portable' }).findings;
    if (findings.some((f) => f.code === 'skill/link-escapes')) codes.add('skill/link-escapes');
  }
  return codes;
}
