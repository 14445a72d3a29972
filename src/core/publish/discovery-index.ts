/** The Agent Skills discovery index (agentskills discovery RFC v0.2.0, agentskills PR #254). */
export const discoverySchema = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';
export const wellKnownDir = '.well-known/agent-skills';

export interface IndexEntry {
  name: string;
  type: 'skill-md' | 'archive';
  description: string;
  /** Site-relative URL of the artifact. */
  url: string;
  /** `sha256:<hex>` of the artifact's bytes, exactly as served. */
  digest: string;
}

/** One commit that changed a skill's folder, newest first in a history. */
export interface SkillChange {
  commit: string;
  /** ISO-8601. */
  time: string;
  subject: string;
}

export interface DiscoveryIndex {
  $schema: string;
  skills: IndexEntry[];
}

export function buildDiscoveryIndex(entries: readonly IndexEntry[]): DiscoveryIndex {
  return { $schema: discoverySchema, skills: [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
}

/**
 * The name each skill is published under, by id: its own name, or `<plugin>-<skill>` when skills of several
 * plugins share it (Claude Code tells them apart as `a:setup` and `b:setup`; a discovery index, a marketplace
 * and a folder of artifacts need one name each, valid as a skill name). Published SKILL.md files carry it.
 */
export function publishedNames(skills: readonly { id: string; name: string }[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const skill of skills) count.set(skill.name, (count.get(skill.name) ?? 0) + 1);
  return new Map(skills.map((skill) => [skill.id, (count.get(skill.name) ?? 0) > 1 ? skill.id.replaceAll(':', '-') : skill.name]));
}

/** A skill of only SKILL.md is served as itself; one with support files as an archive holding them all. */
export function artifactFor(name: string, files: readonly string[]): { type: IndexEntry['type']; path: string } {
  return files.length === 1 && files[0] === 'SKILL.md'
    ? { type: 'skill-md', path: `${wellKnownDir}/${name}/SKILL.md` }
    : { type: 'archive', path: `${wellKnownDir}/${name}.tar.gz` };
}

/**
 * A version that moves whenever the skill's content does: `0.<commits>.0`,
 * counting the commits that changed its folder, with `-dev.<digest>` while the
 * working copy differs from the last of them. A vendored skill adds its pinned
 * source commit as build metadata (`+upstream.<commit>`), so the version names the upstream it came from.
 */
export function versionOf(history: readonly SkillChange[], dirty: { digest: string } | undefined, pinned?: string): string {
  const base = `0.${history.length}.0`;
  const version = dirty ? `${base}-dev.${dirty.digest.replace(/^sha256:/, '').slice(0, 8)}` : base;
  return pinned ? `${version}+upstream.${pinned.slice(0, 12)}` : version;
}

/** The change log of one skill, newest first, from its commits. */
export function renderChangelog(name: string, history: readonly SkillChange[]): string {
  const lines = [`# ${name} — changes`, ''];
  history.forEach((entry, i) => {
    const version = `0.${history.length - i}.0`;
    lines.push(`- ${version} (${entry.time.slice(0, 10)}, ${entry.commit.slice(0, 7)}): ${entry.subject}`);
  });
  if (history.length === 0) lines.push('- no commits yet');
  return `${lines.join('\n')}\n`;
}
