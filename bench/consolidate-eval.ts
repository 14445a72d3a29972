/**
 * Consolidation quality on labelled libraries built from the real corpus:
 * `npx tsx bench/consolidate-eval.ts`. Multi-section corpus skills are split
 * by `##` into narrow agent-like skills (`<topic>-<section-slug>`), mixed with
 * whole corpus skills that must stay alone; precision and recall are over
 * pairs of skills proposed for one umbrella. Also sweeps the prefix threshold.
 */
import { existsSync } from 'node:fs';
import { planConsolidation } from '../src/core/consolidate/plan.js';
import { corpusSkillsRoot } from '../test/helpers/corpus.js';
import { buildLabelledLibrary, readCorpusEntries, scorePairs } from '../test/fixtures/consolidate/labelled-library.js';
import { buildDuplicatesSet, scoreDuplicates } from '../test/fixtures/consolidate/duplicates-set.js';

if (!existsSync(corpusSkillsRoot)) {
  console.log(`corpus not found at ${corpusSkillsRoot}: nothing to evaluate`);
  process.exit(0);
}
const entries = readCorpusEntries();
const now = new Date('2026-11-30T00:00:00Z');
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

for (const size of [
  { topics: 15, singletons: 60 },
  { topics: 60, singletons: 300 },
  { topics: 120, singletons: 400 },
]) {
  const library = buildLabelledLibrary(entries, size);
  const start = performance.now();
  const result = planConsolidation({ skills: library.skills, now });
  const ms = performance.now() - start;
  const clusters = scorePairs(
    result.clusters.map((c) => c.members),
    library.labels,
  );
  const planned = scorePairs(
    result.plans.map((p) => [p.into, ...p.from].filter((n) => library.labels.has(n))),
    library.labels,
  );
  console.log(
    `${library.skills.length} skills (${size.topics} split topics, ${size.singletons} whole skills): clusters precision ${percent(clusters.precision)} recall ${percent(clusters.recall)} ` +
      `(${clusters.predicted} proposed pairs, ${clusters.truePairs} true) · plans ${result.plans.length}, dropped by the guard ${result.dropped.length}, planned-pair precision ${percent(planned.precision)} · ${ms.toFixed(0)} ms`,
  );
}

console.log('\nprefix_similarity_threshold sweep (60 topics, 300 whole skills):');
const library = buildLabelledLibrary(entries, { topics: 60, singletons: 300 });
for (const threshold of [0.02, 0.03, 0.05, 0.08, 0.12]) {
  const result = planConsolidation({ skills: library.skills, now, config: { prefix_similarity_threshold: threshold } });
  const score = scorePairs(
    result.clusters.map((c) => c.members),
    library.labels,
  );
  console.log(`  ${threshold.toFixed(2)}: precision ${percent(score.precision)} recall ${percent(score.recall)}`);
}

// Recall by content (issue #29): every corpus skill once, copies from a second source renamed to say nothing.
const duplicates = buildDuplicatesSet();
const dupStart = performance.now();
const dupResult = planConsolidation({ skills: duplicates.skills, now });
const dupMs = performance.now() - dupStart;
const dupScore = scoreDuplicates(
  duplicates,
  dupResult.plans.map((p) => [p.into, ...p.from]),
);
console.log(
  `\nduplicates set: ${duplicates.skills.length} skills, ${duplicates.duplicates.length} copy pairs, ${duplicates.near.length} near-copy pairs, ` +
    `${duplicates.families.length} family pairs (one subject written up twice), ${duplicates.apart.length} pairs of different subjects: ` +
    `copies recall ${percent(dupScore.recall)}, near copies ${percent(dupScore.nearRecall)}, families ${percent(dupScore.familyRecall)}, ` +
    `precision ${percent(dupScore.precision)} (${dupScore.predicted} pairs under unrelated names), ` +
    `different subjects merged ${dupScore.merged.length}${dupScore.merged.length > 0 ? ` (${dupScore.merged.map((p) => p.join('+')).join(', ')})` : ''}, ` +
    `copies collapsed ${dupResult.plans.filter((p) => (p.collapsed ?? []).length > 0).length} · ${dupMs.toFixed(0)} ms`,
);
