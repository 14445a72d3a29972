import { expect, it } from 'vitest';
import { planConsolidation } from '../../../src/core/consolidate/index.js';
import { describeFullCorpus } from '../../helpers/corpus.js';
import { buildLabelledLibrary, readCorpusEntries, scorePairs } from '../../fixtures/consolidate/labelled-library.js';
import { now } from './library.js';

describeFullCorpus('consolidation on a labelled library split from the real corpus', () => {
  const library = buildLabelledLibrary(readCorpusEntries(), { topics: 15, singletons: 60 });
  const result = planConsolidation({ skills: library.skills, now });

  it('regroups the split skills and leaves unrelated ones alone (precision ≥ 0.9, recall ≥ 0.8)', () => {
    const score = scorePairs(
      result.clusters.map((c) => c.members),
      library.labels,
    );
    expect(score.truePairs).toBeGreaterThan(100);
    expect(score.precision).toBeGreaterThanOrEqual(0.9);
    expect(score.recall).toBeGreaterThanOrEqual(0.8);
  });

  it('turns clusters into plans the guard accepts', () => {
    expect(result.plans.length).toBeGreaterThan(5);
    expect(result.dropped.map((d) => `${d.plan.into}: ${d.problems.join('; ')}`)).toEqual([]);
  });
});
