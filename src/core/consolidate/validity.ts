import { skillFileName } from '../layout.js';
import type { SkillFileEntry } from '../rules/index.js';
import { parseSkill } from '../skill/index.js';
import { validateSkill } from '../validate.js';
import type { SkillFeatures } from './features.js';
import type { FileTable } from './package.js';
import type { CuratedSkill } from './types.js';

/** A file's size in bytes, as validate's size rules count it (a string is counted as its UTF-8 bytes). */
export function sizeOf(content: Uint8Array | string): number {
  return typeof content === 'string' ? new TextEncoder().encode(content).length : content.length;
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
}): string | undefined {
  const files = new Map<string, SkillFileEntry>();
  for (const [path, content] of input.table) if (path !== skillFileName) files.set(path, { path, size: sizeOf(content) });
  const file = `${input.dir}/${skillFileName}`;
  const raw = input.table.get(skillFileName) ?? '';
  const content = typeof raw === 'string' ? raw : new TextDecoder().decode(raw);
  const portableResult = validateSkill({ file, content, folder: input.name, profile: 'portable', files });
  const portableErrors = portableResult.findings.filter((f) => f.severity === 'error');
  const tolerated = portableErrors.some((f) => f.code === 'skill/link-escapes') ? toleratedCodes(input.members) : new Set<string>();
  const portable = portableErrors.filter((f) => !tolerated.has(f.code));
  if (portable.length > 0)
    return `the umbrella ${input.name} would not be valid: ${portable.map((f) => `${f.code} at line ${f.line}: ${f.message}`).join('; ')}`;
  const used = input.usedKeys ?? new Set(input.members.flatMap((m) => Object.keys(parseSkill(m.text, { file: m.dir }).fields)));
  // The parse validateSkill made of this very text and file name: no second YAML parse.
  const parsed = portableResult.skill;
  const allowedLines = new Set([...used].map((key) => parsed.locateKey([key])?.line).filter((line) => line !== undefined));
  const spec = validateSkill({ file, content, folder: input.name, profile: 'spec', files }).findings.filter(
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
