import type { ConsolidationConfig } from './config.js';
import { intersect, setJaccard, type SkillFeatures } from './features.js';
import { estimateJaccard, findCandidatePairs } from './minhash.js';
import { buildFamilyPrefixes, groupByPrefix, sharedPrefix } from './prefix.js';
import { differSubjects } from './subject.js';
import type { Cluster, PairSimilarity } from './types.js';

/**
 * Clusters of at least `min_cluster_size` skills, each with the evidence that linked them, sorted by first member.
 * Two kinds of link: a shared name prefix backed by some content, tool or path overlap (single linkage inside
 * one name family), and near-duplicate content (average linkage, so one copied boilerplate section cannot
 * chain two families together). Content never links two skills about different subjects (subject.ts): inside a
 * name family the prefix says the subject is one.
 */
export function buildClusters(features: readonly SkillFeatures[], config: ConsolidationConfig): Cluster[] {
  const n = features.length;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const members = new Map<number, number[]>(features.map((_, i) => [i, [i]]));
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const union = (i: number, j: number): void => {
    const a = find(i);
    const b = find(j);
    if (a === b) return;
    parent[a] = b;
    members.set(b, [...(members.get(b) ?? []), ...(members.get(a) ?? [])]);
    members.delete(a);
  };
  linkPrefixFamilies(features, config, find, union);
  const similarity = (i: number, j: number) =>
    estimateJaccard((features[i] as SkillFeatures).signature, (features[j] as SkillFeatures).signature);
  const contentPairs = [
    ...findCandidatePairs(
      features.map((f) => f.signature),
      config,
    ),
  ]
    .map((pair) => ({ i: Math.floor(pair / n), j: pair % n }))
    .map((p) => ({ ...p, s: similarity(p.i, p.j) }))
    .filter((p) => p.s >= config.similarity_threshold)
    .sort((x, y) => y.s - x.s || x.i - y.i || x.j - y.j);
  for (const { i, j } of contentPairs) {
    const a = members.get(find(i)) ?? [];
    const b = members.get(find(j)) ?? [];
    if (find(i) === find(j) || a.length + b.length > config.max_cluster_size) continue;
    if (a.some((x) => b.some((y) => differSubjects(features[x] as SkillFeatures, features[y] as SkillFeatures)))) continue;
    let total = 0;
    for (const x of a) for (const y of b) total += similarity(x, y);
    if (total / (a.length * b.length) >= config.similarity_threshold) union(i, j);
  }
  return [...members.values()]
    .filter((list) => list.length >= config.min_cluster_size)
    .map((list) =>
      describeCluster(
        list.map((i) => features[i] as SkillFeatures),
        config,
      ),
    )
    .sort((a, b) => (a.members[0] as string).localeCompare(b.members[0] as string));
}

/**
 * A prefix links two skills only when it is the longest prefix each shares with any skill (its family):
 * `scientific-writing-x` and `scientific-slides-y` share `scientific`, but each has a closer family.
 */
function linkPrefixFamilies(
  features: readonly SkillFeatures[],
  config: ConsolidationConfig,
  find: (i: number) => number,
  union: (i: number, j: number) => void,
): void {
  const family = buildFamilyPrefixes(features.map((f) => f.nameTokens));
  for (const [group, others] of groupByPrefix(features.map((f) => f.nameTokens))) {
    const check = (i: number, j: number): void => {
      if (find(i) === find(j) || family[i] !== family[j]) return;
      const a = features[i] as SkillFeatures;
      const b = features[j] as SkillFeatures;
      const shared = sharedPrefix([a.name, b.name], config.prefix_min_length);
      if (shared === null || shared !== family[i]) return;
      if (prefixScore(a, b, config) >= config.prefix_similarity_threshold) union(i, j);
    };
    for (let x = 0; x < group.length; x++) {
      for (let y = x + 1; y < group.length; y++) check(group[x] as number, group[y] as number);
      for (const j of others) check(group[x] as number, j);
    }
  }
}

/** Content similarity plus weighted tool and path overlap, for two skills that share a name prefix. */
export function prefixScore(a: SkillFeatures, b: SkillFeatures, config: ConsolidationConfig): number {
  return (
    estimateJaccard(a.signature, b.signature) +
    config.tools_weight * setJaccard(a.tools, b.tools) +
    config.paths_weight * setJaccard(a.paths, b.paths)
  );
}

/** A cluster of these members with the evidence that links them. */
export function describeCluster(list: readonly SkillFeatures[], config: ConsolidationConfig): Cluster {
  const sorted = [...list].sort((a, b) => a.name.localeCompare(b.name));
  const similarities: PairSimilarity[] = [];
  for (let x = 0; x < sorted.length; x++) {
    for (let y = x + 1; y < sorted.length; y++) {
      const a = sorted[x] as SkillFeatures;
      const b = sorted[y] as SkillFeatures;
      similarities.push({ a: a.name, b: b.name, jaccard: round(estimateJaccard(a.signature, b.signature)) });
    }
  }
  return {
    members: sorted.map((m) => m.name),
    evidence: {
      prefix: sharedPrefix(
        sorted.map((m) => m.name),
        config.prefix_min_length,
      ),
      similarities,
      sharedTools: intersect(sorted.map((m) => m.tools)),
      sharedPaths: intersect(sorted.map((m) => m.paths)),
    },
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
