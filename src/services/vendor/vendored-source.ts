import type { LockEntry } from '../../core/vendor/index.js';
import { readUpstreamStatuses } from './update.js';
import { readLock } from './vendored-skill.js';

/** Where a vendored skill comes from, as `list` and `show` say it. */
export interface VendoredSource {
  source: string;
  ref?: string;
  /** The pinned source commit, when this tool (or one that records it) wrote the entry. */
  commit?: string;
  installedAt?: string;
  /** Only after a fetch (`--check-upstream`): whether the skill's folder changed upstream since the pin. */
  behind?: boolean;
  /** With `behind`: the ref's tip, and the upstream commits since the pin that touched the folder (`%h %s`). */
  upstream?: { tip: string; commits: string[] };
}

/** Every skill the lock names, by name; empty without a lock. A broken lock throws (`vendor/bad-lock`). */
export function readVendoredSources(repoDir: string): Map<string, VendoredSource> {
  return new Map(Object.entries(readLock(repoDir).skills).map(([name, entry]) => [name, describeEntry(entry)]));
}

/** The lock's entry for `name`, or `null` for a skill that is not vendored. */
export function readVendoredSource(repoDir: string, name: string): VendoredSource | null {
  return readVendoredSources(repoDir).get(name) ?? null;
}

/**
 * `behind` for the vendored skills among `dirs` (name → folder): one fetch per source, nothing written. An entry
 * another tool wrote without a pinned commit has no base to compare with: it is left without `behind`.
 */
export async function checkVendoredSources(
  repoDir: string,
  sources: ReadonlyMap<string, VendoredSource>,
  dirs: ReadonlyMap<string, string>,
): Promise<Map<string, VendoredSource>> {
  const statuses = await readUpstreamStatuses(repoDir, dirs);
  const out = new Map(sources);
  for (const s of statuses) {
    const known = out.get(s.name);
    if (known) out.set(s.name, { ...known, behind: s.behind, upstream: { tip: s.to, commits: s.commits } });
  }
  return out;
}

function describeEntry(entry: LockEntry): VendoredSource {
  return {
    source: entry.source,
    ...(entry.ref ? { ref: entry.ref } : {}),
    ...(typeof entry.commit === 'string' ? { commit: entry.commit } : {}),
    ...(typeof entry.installedAt === 'string' ? { installedAt: entry.installedAt } : {}),
  };
}
