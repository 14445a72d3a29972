import { mergeUsage } from './merge-usage.js';
import type { UsageCounters } from './types.js';

export interface ClientKeyedUsage {
  /** Counters keyed by the name clients call each skill (`plugin:skill` for a plugin's skill). */
  totals: Map<string, UsageCounters>;
  /** Old keys (a folder's plain name) that several plugins' skills share: kept under the old key, never guessed. */
  ambiguous: { key: string; ids: string[] }[];
}

/**
 * Usage keyed as the clients name the skill. Records written before plugin skills were named `plugin:skill` are keyed by
 * the folder's plain name (`setup`): they count for the one skill of that plain name, and, when several plugins have a
 * `setup`, they stay under `setup` and are reported, since nothing says which plugin's skill they were.
 * `ids` are the library's skill names (`plugin:skill` or plain).
 */
export function keyUsageByClientName(totals: ReadonlyMap<string, Partial<UsageCounters>>, ids: readonly string[]): ClientKeyedUsage {
  const known = new Set(ids);
  const byPlain = new Map<string, string[]>();
  for (const id of ids) {
    const colon = id.indexOf(':');
    if (colon < 0) continue;
    const plain = id.slice(colon + 1);
    byPlain.set(plain, [...(byPlain.get(plain) ?? []), id]);
  }
  const ambiguous: ClientKeyedUsage['ambiguous'] = [];
  const keyed = [...totals].map(([key, counters]) => {
    const owners = known.has(key) ? undefined : byPlain.get(key);
    if (owners === undefined) return { skills: { [key]: counters } };
    if (owners.length === 1) return { skills: { [owners[0] as string]: counters } };
    ambiguous.push({ key, ids: [...owners].sort() });
    return { skills: { [key]: counters } };
  });
  return { totals: mergeUsage(keyed), ambiguous };
}
