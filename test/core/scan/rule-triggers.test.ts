import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTriggersSource, buildVersionSource, triggersFile, versionFile } from '../../../scripts/generate-scan-triggers.js';
import { deriveSecondTriggers, deriveTriggers, ruleSecondTriggers, ruleTriggers } from '../../../src/core/scan/compile.js';
import { compileTable, matcherInputs } from '../../../src/core/scan/raw-scan.js';
import { generatedMatcher, generatedTriggers } from '../../../src/core/scan/rule-triggers.generated.js';
import { builtinRuleSetVersion } from '../../../src/core/scan/rule-set-version.generated.js';
import { ruleSetVersion } from '../../../src/core/scan/rule-set-version.js';
import { THREAT_RULES } from '../../../src/core/scan/rules.js';
import { buildTriggerMatcher, deserializeMatcher } from '../../../src/core/scan/trigger-index.js';

describe('rule triggers derived at build time', () => {
  it('are current: the committed table is what the generator makes from the rules today', () => {
    expect(readFileSync(triggersFile, 'utf8'), 'run `npm run generate:triggers`').toBe(buildTriggersSource());
  });

  it("the scan cache's rule-set version written at build time is the built-in rules' version today, and moves with any rule", () => {
    expect(readFileSync(versionFile, 'utf8'), 'run `npm run generate:triggers`').toBe(buildVersionSource());
    expect(builtinRuleSetVersion).toBe(ruleSetVersion());
    const withAccept = THREAT_RULES.findIndex((r) => r.accept);
    const changed = THREAT_RULES.map((r, i) => (i === withAccept ? { ...r, accept: (m: string) => m.length > 3 } : r));
    expect(ruleSetVersion(changed)).not.toBe(builtinRuleSetVersion);
  });

  it('equal what the runtime derivation gives, for every built-in rule', () => {
    let derivedHere = 0;
    for (const rule of THREAT_RULES) {
      const runtime = rule.triggers ?? deriveTriggers(rule.pattern);
      expect(ruleTriggers(rule), rule.id).toEqual(runtime);
      if (rule.triggers === undefined) {
        const second = deriveSecondTriggers(rule.pattern);
        expect(ruleSecondTriggers(rule), rule.id).toEqual(second);
        expect(generatedTriggers[rule.id], rule.id).toEqual([rule.pattern.source, runtime ?? null, second ?? null]);
        derivedHere++;
      } else expect(ruleSecondTriggers(rule), rule.id).toBeUndefined();
    }
    expect(derivedHere).toBeGreaterThan(100);
  });

  it('are derived at run time for a rule whose pattern is not the one in the table', () => {
    const rule = THREAT_RULES.find((r) => r.triggers === undefined && generatedTriggers[r.id]?.[1])!;
    const changed = { ...rule, pattern: /\bzzqx-exfil\b/ };
    expect(ruleTriggers(changed)).toEqual(deriveTriggers(changed.pattern));
    expect(ruleTriggers(changed)).not.toEqual(ruleTriggers(rule));
    expect(ruleTriggers({ ...rule, id: 'custom-rule', pattern: /\bzzqx\b/ })).toEqual([{ text: 'zzqx', before: true, after: true }]);
    expect(ruleSecondTriggers({ ...rule, id: 'custom-rule', pattern: /\bzzqx\s+mode\b/ })).toEqual([
      { text: 'mode', before: true, after: true },
    ]);
  });

  it('the trigger matcher written at build time is the one built from the rules at run time, and only used for them', () => {
    const inputs = matcherInputs(THREAT_RULES.map(ruleTriggers), THREAT_RULES.map(ruleSecondTriggers));
    const fresh = buildTriggerMatcher(inputs);
    expect(deserializeMatcher(generatedMatcher)).toEqual(fresh);
    expect(buildTriggerMatcher(inputs, generatedMatcher)).toEqual(fresh);
    expect(compileTable(THREAT_RULES).triggers).toEqual(fresh);
    // Other literals: built, not taken from the table.
    const other = buildTriggerMatcher([...inputs, 'zzqx'], generatedMatcher);
    expect(other).toEqual(buildTriggerMatcher([...inputs, 'zzqx']));
    expect(other.literals).toContain('zzqx');
  });
});
