/** A validation profile: which frontmatter keys are known and how unknown ones are judged. */
export type ProfileName = 'portable' | 'spec' | 'claude-code' | 'hermes' | 'agent-plugins';

export const profileNames: readonly ProfileName[] = ['portable', 'spec', 'claude-code', 'hermes', 'agent-plugins'];

/** Path into the frontmatter, e.g. ['metadata', 'author'] or ['allowed-tools', 2]; [] = the frontmatter as a whole. */
export type FieldPath = readonly (string | number)[];

/** 1-based, in the SKILL.md file. */
export interface Position {
  line: number;
  column: number;
}

export interface SchemaCheckInput {
  file: string;
  /** The frontmatter as plain JS (may be anything: null, list, scalar). */
  data: unknown;
  /** `data` is plain JSON-like data already (the quick reader's): no copy, no cycle check. */
  plain?: boolean;
  profile: ProfileName;
  /** Position of the key at path (for "unknown key" and "missing key"). */
  locateKey: (path: FieldPath) => Position | undefined;
  /** Position of the value at path (for "wrong type", "not one of"). */
  locateValue: (path: FieldPath) => Position | undefined;
}

export function isProfileName(value: unknown): value is ProfileName {
  return typeof value === 'string' && (profileNames as readonly string[]).includes(value);
}
