import { specialRule, type SpecialRuleId } from '../../core/scan/special-rules.js';
import type { ScanFinding } from '../../core/scan/types.js';

/** A whole-file structural finding (line 0, column 0). */
export function buildStructureFinding(id: SpecialRuleId, file: string, detail: string): ScanFinding {
  const rule = specialRule(id);
  return {
    rule: id,
    category: rule.category,
    severity: rule.severity,
    file,
    line: 0,
    column: 0,
    match: detail,
    message: `${rule.message}: ${detail}`,
    hint: rule.hint,
    via: 'raw',
  };
}
