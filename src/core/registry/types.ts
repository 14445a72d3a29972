import type { Finding } from '../findings.js';

/** How a skill runs when loaded: in the agent's own context, or handed to a sub-agent. */
export type SkillContext = 'inline' | 'fork';

/** What the registry knows of one skill: the SKILL.md fields it needs, read once. */
export interface RegistryEntry {
  /** Canonical name: the folder's name. */
  name: string;
  /** The frontmatter `name` when it differs from the folder: an alias that resolves to `name`. */
  alias: string | undefined;
  category: string | undefined;
  /** Absolute folder path. */
  dir: string;
  /** Folder relative to the skills root (POSIX). */
  relativeDir: string;
  description: string;
  whenToUse: string | undefined;
  argumentHint: string | undefined;
  userInvocable: boolean;
  modelInvocable: boolean;
  pinned: boolean;
  context: SkillContext;
  allowedTools: string[];
  model: string | undefined;
  agent: string | undefined;
  effort: string | undefined;
  /** Requested sub-agent step limit (`max-steps`/`max_steps`), if any. */
  maxSteps: number | undefined;
  /** `paths` globs: a skill with any starts dormant until a matching path is touched. */
  paths: string[];
  body: string;
  /** Findings of the version being served. */
  findings: Finding[];
}
