/**
 * The plans themselves, as digests: `npx tsx bench/consolidate-digest.ts [out.json]`.
 * A speed change to the planner must not change one byte of its result: run this
 * on the commit before and after and compare (generated libraries and, when the
 * corpus is present, the labelled libraries of bench/consolidate-eval.ts).
 */
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { planConsolidation, type ConsolidationResult } from '../src/core/consolidate/plan.js';
import { corpusSkillsRoot } from '../test/helpers/corpus.js';
import { buildLabelledLibrary, readCorpusEntries } from '../test/fixtures/consolidate/labelled-library.js';
import { generateCuratedLibrary } from './consolidate.js';

const now = new Date('2026-11-30T00:00:00Z');
/** The whole result as JSON, bytes as base64 (JSON.stringify would spell a Uint8Array as an object of indices). */
export function resultJson(result: ConsolidationResult): string {
  return JSON.stringify(result, (_key, value: unknown) =>
    value instanceof Uint8Array ? `bytes:${Buffer.from(value).toString('base64')}` : value,
  );
}
const digest = (result: ConsolidationResult) =>
  `${createHash('sha256').update(resultJson(result)).digest('hex').slice(0, 16)} plans=${result.plans.length} dropped=${result.dropped.length} skipped=${result.skipped.length}`;

const out: Record<string, string> = {};
for (const [n, seed] of [
  [1000, 7],
  [3000, 3],
  [10000, 7],
] as const)
  out[`generated ${n} seed ${seed}`] = digest(planConsolidation({ ...generateCuratedLibrary(n, seed), now }));
if (existsSync(corpusSkillsRoot)) {
  const entries = readCorpusEntries();
  for (const size of [
    { topics: 15, singletons: 60 },
    { topics: 60, singletons: 300 },
    { topics: 120, singletons: 400 },
  ])
    out[`corpus ${size.topics} topics ${size.singletons} whole`] = digest(
      planConsolidation({ skills: buildLabelledLibrary(entries, size).skills, now }),
    );
}
for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(34)} ${v}`);
if (process.argv[2]) writeFileSync(process.argv[2], `${JSON.stringify(out, null, 1)}\n`);
