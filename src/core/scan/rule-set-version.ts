import { fingerprint } from '../content-cache.js';
import { THREAT_RULES, type ThreatRule } from './rules.js';
import { scanEngineVersion } from './scan-cache.js';
import { SPECIAL_RULES } from './special-rules.js';

/**
 * A fingerprint of everything that decides a file's content findings: every
 * rule's fields, and the engine version. The built-in rules' value is written
 * at build time (rule-set-version.generated.ts), so a run the cache answers
 * whole never loads the rule table.
 */
export function ruleSetVersion(rules: readonly ThreatRule[] = THREAT_RULES): string {
  const table = rules.map((r) => [
    ...[r.id, r.category, r.severity, r.pattern.source, r.pattern.flags, r.message, r.hint],
    ...[
      r.accept ? canonicalSource(r.accept) : null,
      r.demoteWhenQuoted ?? false,
      r.demoteWhenNegated ?? false,
      r.triggers ?? null,
      r.base64Run ?? null,
    ],
  ]);
  const specials = SPECIAL_RULES.map((r) => [r.id, r.category, r.severity, r.message, r.hint]);
  return `${scanEngineVersion}:${rules.length}:${fingerprint(JSON.stringify([table, specials]))}`;
}

/**
 * A function's text as every compiler of this code writes it (tsc keeps
 * comments and spaces, esbuild's transforms drop or respace them, double or
 * single quotes): the built-in value is written by one and checked by another.
 */
function canonicalSource(fn: (match: string) => boolean): string {
  return String(fn)
    .replace(/\/\/[^\n]*\n/g, '\n')
    .replace(/\s+/g, '')
    .replace(/"/g, "'")
    .replace(/\((\w+)\)=>/g, '$1=>')
    .replace(/;}/g, '}');
}
