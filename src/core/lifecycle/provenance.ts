import type { SkillHistory } from '../ledger/history-index.js';
import type { Provenance } from './types.js';

/** The provenance lists kept in files (DESIGN §4), as `store/provenance-files.ts` reads them. */
export interface ProvenanceLists {
  bundled: ReadonlySet<string>;
  hub: ReadonlySet<string>;
  adopted: ReadonlySet<string>;
}

export interface ResolvedProvenance {
  provenance: Provenance;
  /** Adopted by an `adopt` commit or listed in `adopted.txt`: curated from then on. */
  adopted: boolean;
  /** When it came under management: the adopt commit, else (listed in `adopted.txt`) its creation. */
  adoptedAt?: string;
}

/**
 * Who created a skill (DESIGN §4), the one answer the curator, `list` and consolidation share: the bundled and hub
 * lists first, then history (an agent's background creation), else a person's.
 */
export function resolveProvenance(name: string, lists: ProvenanceLists, history: SkillHistory | undefined): ResolvedProvenance {
  const provenance: Provenance = lists.bundled.has(name) ? 'bundled' : lists.hub.has(name) ? 'hub' : (history?.provenance ?? 'user');
  const listed = lists.adopted.has(name);
  const adoptedAt = history?.adopted?.time ?? (listed ? history?.created.time : undefined);
  return { provenance, adopted: listed || (history?.adopted ?? null) !== null, ...(adoptedAt ? { adoptedAt } : {}) };
}
