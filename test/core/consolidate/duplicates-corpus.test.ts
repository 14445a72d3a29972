import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { planConsolidation } from '../../../src/core/consolidate/index.js';
import type { ConsolidationPlan, CuratedSkill } from '../../../src/core/consolidate/types.js';
import { runValidateAndScan } from '../../../src/services/validate-and-scan.js';
import { describeFullCorpus } from '../../helpers/corpus.js';
import { buildDuplicatesSet, scoreDuplicates } from '../../fixtures/consolidate/duplicates-set.js';
import { now } from './library.js';

/** The umbrella's folder as it is after the plan: its files before, with the plan's writes and deletions. */
function umbrellaFiles(plan: ConsolidationPlan, into: CuratedSkill | undefined): Map<string, Uint8Array | string> {
  const files = new Map<string, Uint8Array | string>(
    into ? [['SKILL.md', into.text], ...into.files.map((f) => [f.path, f.content] as const)] : [],
  );
  for (const change of plan.changes) {
    if (!change.path.startsWith(`${plan.intoDir}/`)) continue;
    const path = change.path.slice(plan.intoDir.length + 1);
    if (change.content === null) files.delete(path);
    else files.set(path, change.content);
  }
  return files;
}

describeFullCorpus('duplicates found by content on a labelled set from the whole corpus', () => {
  const set = buildDuplicatesSet();
  const result = planConsolidation({ skills: set.skills, now });
  const root = mkdtempSync(join(tmpdir(), 'skillgarden-dups-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds the copies whatever their names and merges no two subjects (recall ≥ 0.9, precision ≥ 0.9)', () => {
    expect(set.duplicates.length).toBeGreaterThan(25);
    // Two languages of one template, one folder name for two brands, and the Orchestra fine-tuning template filled in for six products.
    expect(set.apart.length).toBe(10);
    const planned = scoreDuplicates(
      set,
      result.plans.map((p) => [p.into, ...p.from]),
    );
    expect(planned.merged).toEqual([]);
    expect(planned.recall).toBeGreaterThanOrEqual(0.9);
    expect(planned.precision).toBeGreaterThanOrEqual(0.9);
  });

  it('measures near copies and families under unrelated names (what is found today, not a floor to fall below)', () => {
    expect(set.near.length).toBe(2);
    expect(set.families.length).toBeGreaterThanOrEqual(8);
    const planned = scoreDuplicates(
      set,
      result.plans.map((p) => [p.into, ...p.from]),
    );
    // superpowers' systematic-debugging and Hermes' adaptation share 0.64 of their words: found by content alone.
    expect(planned.nearRecall).toBeGreaterThanOrEqual(0.5);
  });

  it('collapses a copy instead of copying it: the umbrella grows by what differs only', () => {
    const identical = result.plans.filter((p) => (p.collapsed ?? []).length > 0);
    expect(identical.length).toBeGreaterThan(20);
    const byName = new Map(set.skills.map((s) => [s.name, s]));
    for (const plan of identical) {
      const into = byName.get(plan.into);
      const after = umbrellaFiles(plan, into);
      // The frontmatter's `absorbed` line and a NOTICE at most: never a second body, inline or in references/.
      expect(String(after.get('SKILL.md')).length - (into?.text.length ?? 0)).toBeLessThan(600);
      for (const name of plan.collapsed ?? []) expect(after.has(`references/${name}.md`)).toBe(false);
    }
  });

  it('writes umbrellas that pass validate with the scan: no error, nothing dangerous', async () => {
    const byName = new Map(set.skills.map((s) => [s.name, s]));
    for (const plan of result.plans) {
      for (const [path, content] of umbrellaFiles(plan, byName.get(plan.into))) {
        mkdirSync(dirname(join(root, plan.intoDir, path)), { recursive: true });
        writeFileSync(join(root, plan.intoDir, path), content);
      }
    }
    const { report, scan } = await runValidateAndScan({ cwd: root, paths: result.plans.map((p) => join(root, p.intoDir)), scan: {} });
    expect(report.findings.filter((f) => f.severity === 'error').map((f) => `${f.file}: ${f.code}`)).toEqual([]);
    expect(scan?.summary.dangerous).toBe(0);
  });
});
