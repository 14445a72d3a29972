/** `consolidation:` settings (schemas/consolidation-config.schema.json). Every field is optional in the file. */
export interface ConsolidationConfig {
  /** Smallest cluster worth a plan. */
  min_cluster_size: number;
  /** Largest cluster planned at once; a bigger one is reported, not merged (split it by hand or raise this). */
  max_cluster_size: number;
  /** Estimated content Jaccard that alone links two skills (near-duplicates). */
  similarity_threshold: number;
  /** Lower bar for two skills that share a name prefix: content + tool and path overlap must reach it. */
  prefix_similarity_threshold: number;
  /** Shortest shared name prefix, in characters, at a `-` boundary. */
  prefix_min_length: number;
  /** Weight of shared `allowed-tools` (their Jaccard) added to the content similarity of prefix pairs. */
  tools_weight: number;
  /** Weight of shared `paths` globs (their Jaccard) added likewise. */
  paths_weight: number;
  /** A member body longer than this many lines moves to `references/<member>.md` behind a short section. */
  demote_min_lines: number;
  /** A long member is demoted into a sibling's `references/` only with this content similarity to some member (stronger evidence). */
  demote_min_similarity: number;
  /** An existing member with at least this many `##` sections may be the umbrella. */
  umbrella_min_sections: number;
  /** In a library of 200 skills or more, words found in more than this share of skills are ignored (boilerplate). */
  common_word_share: number;
  /** MinHash signature length and LSH bands (rows per band = hashes / bands, rounded down). */
  minhash_hashes: number;
  lsh_bands: number;
}

export const defaultConsolidationConfig: Readonly<ConsolidationConfig> = Object.freeze({
  min_cluster_size: 2,
  max_cluster_size: 24,
  similarity_threshold: 0.5,
  prefix_similarity_threshold: 0.05,
  prefix_min_length: 3,
  tools_weight: 0.1,
  paths_weight: 0.1,
  demote_min_lines: 40,
  demote_min_similarity: 0.3,
  umbrella_min_sections: 3,
  common_word_share: 0.05,
  minhash_hashes: 128,
  lsh_bands: 32,
});

/** The defaults overlaid with whatever the caller set. */
export function resolveConsolidationConfig(partial: Partial<ConsolidationConfig> = {}): ConsolidationConfig {
  const config = { ...defaultConsolidationConfig };
  for (const key of Object.keys(defaultConsolidationConfig) as (keyof ConsolidationConfig)[]) {
    const value = partial[key];
    if (typeof value === 'number' && Number.isFinite(value)) config[key] = value;
  }
  if (config.minhash_hashes % config.lsh_bands !== 0) config.lsh_bands = defaultConsolidationConfig.lsh_bands;
  return config;
}
