import { decisiveFindings, describeFinding, evaluateWritePolicy, type WritePolicyInput } from './policy.js';
import type { ScanFinding } from './types.js';

/**
 * What a rewrite (a model's) adds that the scan flags, judged as an agent's background write is: the findings that
 * would decide a verdict in `after` beyond those `before` already had (by rule and matched text, counted). Model
 * output is input: an injected "ignore all previous instructions", a `curl … | sh`, a credential — none of them is
 * the model's to add, whatever the deterministic text held.
 */
export function listAddedFindings(before: string, after: string, file: string, config?: WritePolicyInput['config']): ScanFinding[] {
  const judge = (text: string): ScanFinding[] => {
    const input = {
      skill: file,
      files: [{ path: file, text }],
      provenance: 'agent' as const,
      source: 'background' as const,
      ...(config ? { config } : {}),
    };
    return decisiveFindings(evaluateWritePolicy(input), input);
  };
  const had = new Map<string, number>();
  for (const f of judge(before)) had.set(keyOf(f), (had.get(keyOf(f)) ?? 0) + 1);
  return judge(after).filter((f) => {
    const left = had.get(keyOf(f)) ?? 0;
    had.set(keyOf(f), left - 1);
    return left <= 0;
  });
}

function keyOf(f: ScanFinding): string {
  return `${f.rule}\u0000${f.match}`;
}

/** The refusal's words: the first few added findings, each on one line. */
export function describeAddedFindings(findings: readonly ScanFinding[]): string {
  const shown = findings.slice(0, 5).map(describeFinding).join('; ');
  return `the scan flags what it added (${shown}${findings.length > 5 ? `; … and ${findings.length - 5} more` : ''})`;
}
