import { finding, hasErrors, type Finding } from '../findings.js';
import { readPathList } from '../skill/path-list.js';
import { readToolList } from '../skill/tool-list.js';
import type { ParsedSkill } from '../skill/types.js';
import type { RegistryEntry } from './types.js';

/** Where a parsed skill sits in the library. */
export interface EntryLocation {
  name: string;
  category: string | undefined;
  dir: string;
  relativeDir: string;
}

export interface BuiltEntry {
  entry: RegistryEntry;
  /** False when the file cannot be served: the registry then keeps the last valid version. */
  valid: boolean;
}

/** What buildEntry reads of a skill: a full parse, or the quick one (no positions). */
export type SkillView = Pick<ParsedSkill, 'file' | 'fields' | 'body' | 'findings'> & { locateKey?: ParsedSkill['locateKey'] };

/** Reads what the runtime needs from a parsed SKILL.md; never throws. */
export function buildEntry(skill: SkillView, location: EntryLocation): BuiltEntry {
  const fields = skill.fields;
  const findings: Finding[] = [...skill.findings];
  const description = text(fields.description)?.trim() ?? '';
  if (description === '') {
    findings.push(
      finding({
        code: 'registry/no-description',
        severity: 'error',
        file: skill.file,
        line: skill.locateKey?.(['description'])?.line ?? 1,
        message: 'SKILL.md has no description, so agents cannot know when to use it',
        hint: 'Add `description: <what it does and when to use it>` to the frontmatter.',
      }),
    );
  }
  const frontmatterName = text(fields.name)?.trim();
  const entry: RegistryEntry = {
    name: location.name,
    alias: frontmatterName && frontmatterName !== location.name ? frontmatterName : undefined,
    category: location.category,
    dir: location.dir,
    relativeDir: location.relativeDir,
    description,
    whenToUse: text(fields.when_to_use)?.trim() || undefined,
    argumentHint: text(fields['argument-hint'])?.trim() || undefined,
    userInvocable: fields['user-invocable'] !== false,
    modelInvocable: fields['disable-model-invocation'] !== true,
    pinned: fields.pinned === true,
    context: fields.context === 'fork' ? 'fork' : 'inline',
    allowedTools: readToolList(fields['allowed-tools']),
    model: text(fields.model),
    agent: text(fields.agent),
    effort: text(fields.effort) ?? (typeof fields.effort === 'number' ? String(fields.effort) : undefined),
    maxSteps: readStepLimit(fields['max-steps'] ?? fields.max_steps),
    paths: readPathList(fields.paths),
    body: skill.body,
    findings,
  };
  return { entry, valid: !hasErrors(findings) };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function readStepLimit(value: unknown): number | undefined {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
}
