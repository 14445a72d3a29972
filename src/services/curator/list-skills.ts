import { isInactive, lastActivity, usageScore } from '../../core/usage/index.js';
import { readLibrary, requireConfig, type LibrarySnapshot } from './read-library.js';

export interface ListedSkill {
  name: string;
  path: string;
  state: 'active' | 'inactive' | 'stale' | 'archived';
  provenance: 'agent' | 'user' | 'bundled' | 'hub';
  pinned: boolean;
  use_count: number;
  last_activity_at: string | null;
  score: number;
  created_at: string | null;
  adopted: boolean;
}

/** Every skill with state, provenance, usage and score (archived ones included), ordered by score then name. */
export async function listSkills(
  repoDir: string,
  now: Date,
  options: { warn?: (message: string) => void } = {},
): Promise<{ skills: ListedSkill[]; snapshot: LibrarySnapshot }> {
  // Listing reads skills and their lifecycle, not the scan policy or consolidation thresholds: a typo there warns, it does not stop the list.
  const needs = ['skills_dir', 'profile', 'stale_after_days', 'archive_after_days', 'references', 'protected'] as const;
  const config = requireConfig(repoDir, { needs, ...(options.warn ? { warn: options.warn } : {}) });
  const snapshot = await readLibrary(repoDir, { now, config });
  const active = snapshot.skills.map((skill): ListedSkill => {
    const usage = snapshot.usage.totals.get(skill.location.id);
    const stale = skill.record?.state === 'stale';
    // Activity as the curator reads it (`skill.usage`): a patch counts whether a usage file or only a commit recorded it.
    return {
      name: skill.location.id,
      path: skill.dir,
      state: stale ? 'stale' : isInactive(skill.usage, now, { pinned: skill.pinned }) ? 'inactive' : 'active',
      provenance: skill.provenance,
      pinned: skill.pinned,
      use_count: usage?.use_count ?? 0,
      last_activity_at: lastActivity(skill.usage) ?? null,
      score: round(usageScore(usage, now)),
      created_at: skill.createdAt ?? null,
      adopted: skill.adoptedAt !== undefined,
    };
  });
  const archived = snapshot.archived.map((location): ListedSkill => {
    const history = snapshot.history.skills[location.name];
    const usage = snapshot.usage.totals.get(location.id);
    return {
      name: location.id,
      path: location.path,
      state: 'archived',
      provenance: history?.provenance ?? 'user',
      pinned: false,
      use_count: usage?.use_count ?? 0,
      last_activity_at: lastActivity(usage) ?? null,
      score: 0,
      created_at: history?.created.time ?? null,
      adopted: history?.adopted !== null && history?.adopted !== undefined,
    };
  });
  const skills = [...active, ...archived].sort((a, b) => b.score - a.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, snapshot };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
