import { specialFinding, type SpecialRuleId } from '../../core/scan/special-rules.js';
import type { ScanFinding } from '../../core/scan/types.js';

/** A whole-file structural finding (line 0, column 0). */
export function buildStructureFinding(id: SpecialRuleId, file: string, detail: string): ScanFinding {
  return specialFinding(id, { file, line: 0, column: 0, match: detail, detail });
}
