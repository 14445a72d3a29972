import { parseSkill } from '../skill/index.js';
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

/** `allowed-tools` as the spec writes it (space-separated) or as a list. */
export function readToolList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** `paths` as one glob, a comma-separated list, or a list. */
export function readPathList(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((p) => p.trim()).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

export function buildFeatures(skill: CuratedSkill, config: Pick<ConsolidationConfig, 'minhash_hashes'>): SkillFeatures {
  const parsed = parseSkill(skill.text, { file: `${skill.dir}/SKILL.md` });
  const description = typeof parsed.fields.description === 'string' ? parsed.fields.description : '';
  return {
    skill,
    parsed,
    name: skill.name,
    nameTokens: skill.name.split('-').filter(Boolean),
    signature: buildSignature(buildShingles(`${description}\n${parsed.body}`), config.minhash_hashes),
    tools: readToolList(parsed.fields['allowed-tools']),
    paths: readPathList(parsed.fields.paths),
  };
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
