import { skillFileName } from '../layout.js';
import type { SkillFileEntry } from '../rules/index.js';
import { parseSkill } from '../skill/index.js';
import type { ParsedSkill } from '../skill/types.js';
import { validateParsedSkill, validateSkill, type SkillValidation } from '../validate.js';
import type { SkillFeatures } from './features.js';
import type { FileTable } from './package.js';
import type { CuratedSkill } from './types.js';

const beyondAscii = /[^\x00-\x7f]/;

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
  // ASCII is one byte a unit: found by one native search rather than the loop below.
  if (!beyondAscii.test(text)) return text.length;
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

/** A folder's files but SKILL.md (path → content), as validate's size and link rules see them once sized. */
export type FileContents = ReadonlyMap<string, Uint8Array | string>;

interface PortableInput {
  file: string;
  folder: string;
  content: string;
  /** The folder's other files: validated by their sizes, which their contents fix. */
  contents: FileContents;
}

/** The entries validate's rules read for these files: each path with its size in bytes. */
export function sizeEntries(contents: FileContents): Map<string, SkillFileEntry> {
  const files = new Map<string, SkillFileEntry>();
  for (const [path, content] of contents) files.set(path, { path, size: sizeOf(content) });
  return files;
}

/**
 * Portable validations of umbrella texts by their whole input, for one
 * planning run: the guard validates each umbrella the planner has just
 * validated with the same file, text, folder and files, and validateSkill is
 * a function of those alone (of the files' paths and sizes, which equal
 * contents fix), so the planner's result is the guard's. A hit compares the
 * files' contents, mostly the very same strings, so the guard counts no
 * bytes. Any other input (an edited umbrella, other files) is validated afresh.
 */
export class PortableValidations {
  private readonly byContent = new Map<string, Array<{ file: string; folder: string; contents: FileContents; result: SkillValidation }>>();

  /** validateSkill under the portable profile, of a parse of the content when the caller has one (and its files' sizes when known). */
  validate(input: PortableInput, parsed?: ParsedSkill, sized?: ReadonlyMap<string, SkillFileEntry>): SkillValidation {
    const seen = this.byContent.get(input.content);
    const hit = seen?.find((e) => e.file === input.file && e.folder === input.folder && sameContents(e.contents, input.contents));
    if (hit) return hit.result;
    const files = sized ?? sizeEntries(input.contents);
    const portable = { file: input.file, folder: input.folder, profile: 'portable', files } as const;
    const result = parsed ? validateParsedSkill(parsed, portable) : validateSkill({ ...portable, content: input.content });
    // A copy: the caller's table may change after (the planner's does not, but nothing here relies on that).
    const entry = { file: input.file, folder: input.folder, contents: new Map(input.contents), result };
    if (seen) seen.push(entry);
    else this.byContent.set(input.content, [entry]);
    return result;
  }
}

/** The same paths in the same order, each with equal bytes (strings compared as strings: equal strings encode alike). */
function sameContents(a: FileContents, b: FileContents): boolean {
  if (a.size !== b.size) return false;
  const right = b.entries();
  for (const [path, content] of a) {
    const next = right.next().value as [string, Uint8Array | string];
    if (next[0] !== path || !sameContent(content, next[1])) return false;
  }
  return true;
}

function sameContent(a: Uint8Array | string, b: Uint8Array | string): boolean {
  if (a === b) return true;
  // Different strings (or a string and bytes) may still have one size: sized afresh, never assumed.
  if (typeof a === 'string' || typeof b === 'string') return false;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  const contents = new Map<string, Uint8Array | string>();
  for (const [path, content] of input.table) if (path !== skillFileName) contents.set(path, content);
  const files = sizeEntries(contents);
  const file = `${input.dir}/${skillFileName}`;
  const raw = input.table.get(skillFileName) ?? '';
  const content = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  // One parse for both profiles: validateSkill is its parse followed by validateParsedSkill.
  const parsed = parseSkill(content, { file });
  const portableResult = input.validations
    ? input.validations.validate({ file, content, folder: input.name, contents }, parsed, files)
    : validateParsedSkill(parsed, { file, folder: input.name, profile: 'portable', files });
  const portableErrors = portableResult.findings.filter((f) => f.severity === 'error');
  const tolerated = portableErrors.some((f) => f.code === 'skill/link-escapes') ? toleratedCodes(input.members) : new Set<string>();
  const portable = portableErrors.filter((f) => !tolerated.has(f.code));
  if (portable.length > 0)
    return `the umbrella ${input.name} would not be valid: ${portable.map((f) => `${f.code} at line ${f.line}: ${f.message}`).join('; ')}`;
  const specErrors = validateParsedSkill(parsed, { file, folder: input.name, profile: 'spec', files }).findings.filter(
    (f) => f.severity === 'error' && !tolerated.has(f.code),
  );
  // Most umbrellas break no spec rule: the members' keys are located only to excuse an error on one of their lines.
  if (specErrors.length === 0) return undefined;
  const used = input.usedKeys ?? new Set(input.members.flatMap((m) => Object.keys(parseSkill(m.text, { file: m.dir }).fields)));
  // The portable validation's parse of this very text (a memo's hit holds an equal one): no second YAML parse.
  const located = portableResult.skill;
  const allowedLines = new Set([...used].map((key) => located.locateKey([key])?.line).filter((line) => line !== undefined));
  const spec = specErrors.filter((f) => !allowedLines.has(f.line));
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
