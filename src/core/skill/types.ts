import type { Document } from 'yaml';
import type { Finding } from '../findings.js';
import type { SkillSections } from './split.js';

/** Path into the frontmatter, e.g. ['metadata', 'author'] or ['allowed-tools', 2]; [] is the frontmatter itself. */
export type FieldPath = readonly (string | number)[];

/** 1-based position in the SKILL.md file. */
export interface Position {
  line: number;
  column: number;
}

/**
 * A loaded SKILL.md. Loading is lenient, as agent clients do it: a file that
 * can be loaded is loaded, and everything wrong with it is in `findings`.
 */
export interface ParsedSkill {
  file: string;
  /** The decoded text exactly as read; serializing an unedited skill returns it. */
  text: string;
  sections: SkillSections;
  /** The frontmatter as plain data: whatever the YAML holds (a map, a list, a scalar, null). */
  data: unknown;
  /** The frontmatter when it is a map, else an empty record: what most callers want. */
  fields: Readonly<Record<string, unknown>>;
  body: string;
  /** The parsed YAML document, absent when the YAML could not be parsed (then `fields` came from a line-based fallback). */
  document: Document.Parsed | undefined;
  findings: Finding[];
  locateKey: (path: FieldPath) => Position | undefined;
  locateValue: (path: FieldPath) => Position | undefined;
}

/** `fields[key]` when it is a string, else undefined. */
export function stringField(skill: Pick<ParsedSkill, 'fields'>, key: string): string | undefined {
  const value = skill.fields[key];
  return typeof value === 'string' ? value : undefined;
}
