import { parseSkill } from '../skill/index.js';
import { readPathList } from '../skill/path-list.js';
import { readToolList } from '../skill/tool-list.js';
import type { ParsedSkill } from '../skill/types.js';
import type { ConsolidationConfig } from './config.js';
import { buildSignature } from './minhash.js';
import { buildShingles } from './shingles.js';
import type { CuratedSkill } from './types.js';

/** What clustering needs of one skill, computed once per pass. */
export interface SkillFeatures {
  skill: CuratedSkill;
  parsed: ParsedSkill;
  name: string;
  nameTokens: string[];
  signature: Uint32Array;
  tools: string[];
  paths: string[];
}

export function buildFeatures(
  skill: CuratedSkill,
  config: Pick<ConsolidationConfig, 'minhash_hashes'>,
  known?: { parsed: ParsedSkill; signature: Uint32Array },
): SkillFeatures {
  const parsed = known?.parsed ?? parseSkill(skill.text, { file: `${skill.dir}/SKILL.md` });
  return {
    skill,
    parsed,
    name: skill.name,
    nameTokens: skill.name.split('-').filter(Boolean),
    signature: known?.signature ?? buildSignature(buildShingles(textOf(parsed)), config.minhash_hashes),
    tools: readToolList(parsed.fields['allowed-tools']),
    paths: readPathList(parsed.fields.paths),
  };
}

function textOf(parsed: ParsedSkill): string {
  const description = typeof parsed.fields.description === 'string' ? parsed.fields.description : '';
  return `${description}\n${parsed.body}`;
}

/**
 * Features of every skill. Words in more than `common_word_share` of a large
 * library's skills (its house boilerplate) make unrelated skills look alike
 * and flood the LSH buckets, so they are left out of the signatures. Small
 * libraries keep every word (a topic word may be in all of them).
 */
export function buildAllFeatures(
  skills: readonly CuratedSkill[],
  config: Pick<ConsolidationConfig, 'minhash_hashes' | 'common_word_share'>,
  /** The skills' parses when the caller has them (`selectCuratable`), in the same order. */
  known?: readonly ParsedSkill[],
): SkillFeatures[] {
  const parsed = known ?? skills.map((skill) => parseSkill(skill.text, { file: `${skill.dir}/SKILL.md` }));
  const shingles = parsed.map((p) => buildShingles(textOf(p)));
  const common =
    skills.length >= 200 && config.common_word_share < 1
      ? commonShingles(shingles, Math.max(2, config.common_word_share * skills.length))
      : new Uint32Array(0);
  return skills.map((skill, i) => {
    const kept = common.length === 0 ? (shingles[i] as Uint32Array) : without(shingles[i] as Uint32Array, common);
    return buildFeatures(skill, config, { parsed: parsed[i] as ParsedSkill, signature: buildSignature(kept, config.minhash_hashes) });
  });
}

/** The shingles in more than `limit` of the lists (each list distinct), sorted: counted by sorting all of them, no Map of boxed hashes. */
function commonShingles(lists: readonly Uint32Array[], limit: number): Uint32Array {
  const all = new Uint32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  const common: number[] = [];
  for (let i = 0; i < all.length;) {
    let j = i + 1;
    while (j < all.length && all[j] === all[i]) j++;
    if (j - i > limit) common.push(all[i] as number);
    i = j;
  }
  return Uint32Array.from(common);
}

/** A sorted list without the values of another sorted list (a merge). */
function without(sorted: Uint32Array, drop: Uint32Array): Uint32Array {
  const out = new Uint32Array(sorted.length);
  let kept = 0;
  let d = 0;
  for (let i = 0; i < sorted.length; i++) {
    const value = sorted[i] as number;
    while (d < drop.length && (drop[d] as number) < value) d++;
    if (d < drop.length && drop[d] === value) continue;
    out[kept++] = value;
  }
  return out.slice(0, kept);
}

export function setJaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const x of left) if (right.has(x)) shared++;
  return shared / (left.size + right.size - shared);
}

export function intersect(lists: readonly (readonly string[])[]): string[] {
  const [first = [], ...rest] = lists;
  return [...new Set(first)].filter((x) => rest.every((list) => list.includes(x))).sort();
}
