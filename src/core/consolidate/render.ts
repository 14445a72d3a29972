import { stringify } from 'yaml';
import type { ClusterEvidence, ConsolidationPlan, ConsolidationResult } from './types.js';

/** What the optional LLM pass did to a plan's umbrella. */
export interface PlanLlmNote {
  used: boolean;
  model: string;
  reason?: string;
}

export interface PlanReport {
  plans: Array<{
    kind: ConsolidationPlan['kind'];
    into: string;
    from: string[];
    reason: string;
    evidence: ClusterEvidence;
    archived: ConsolidationPlan['archived'];
    rewritten: string[];
    mentionsLeft: string[];
    demoted: string[];
    llm?: PlanLlmNote;
  }>;
  consolidations: Array<{ from: string; into: string; reason: string }>;
  prunings: Array<{ name: string; reason: string }>;
  dropped: Array<{ into: string; from: string[]; problems: string[] }>;
  skipped: Array<{ names: string[]; reason: string }>;
  /** `plan --advise`: overlaps among skills the curator may not touch, explained, never applied. */
  advice?: Array<{ names: string[]; kind: 'near-duplicate' | 'overlap'; reason: string }>;
}

/** The evidence in words a reviewer can check: which prefix, which similarity, which tools. */
export function describeEvidence(evidence: ClusterEvidence): string {
  const parts: string[] = [];
  if (evidence.prefix) parts.push(`share the name prefix \`${evidence.prefix}\``);
  const values = evidence.similarities.map((s) => s.jaccard);
  if (values.length > 0) {
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    parts.push(
      `content similarity (estimated Jaccard of their words) ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}, mean ${mean.toFixed(2)}`,
    );
  }
  if (evidence.sharedTools.length > 0) parts.push(`shared allowed-tools: ${evidence.sharedTools.join(', ')}`);
  if (evidence.sharedPaths.length > 0) parts.push(`shared paths: ${evidence.sharedPaths.join(', ')}`);
  return parts.join('; ');
}

export function describePlan(plan: ConsolidationPlan): string {
  const what = plan.kind === 'create' ? `a new umbrella \`${plan.into}\`` : `the existing skill \`${plan.into}\``;
  const members = plan.kind === 'create' ? plan.from.length : plan.from.length + 1;
  return `${members} skills ${describeEvidence(plan.evidence)}. Into ${what}: ${plan.reason}.`;
}

/** DESIGN §12's `plan --json` shape, plus what was dropped and skipped. */
export function buildPlanReport(
  result: Pick<ConsolidationResult, 'plans' | 'dropped' | 'skipped'>,
  options: { prunings?: PlanReport['prunings']; llm?: ReadonlyMap<string, PlanLlmNote> } = {},
): PlanReport {
  const prunings = options.prunings ?? [];
  return {
    plans: result.plans.map((p) => {
      const llm = options.llm?.get(p.into);
      return {
        kind: p.kind,
        into: p.into,
        from: p.from,
        reason: describePlan(p),
        evidence: p.evidence,
        archived: p.archived,
        rewritten: p.rewritten,
        mentionsLeft: p.mentionsLeft,
        demoted: p.demoted,
        ...(llm ? { llm } : {}),
      };
    }),
    consolidations: result.plans.flatMap((p) => p.from.map((from) => ({ from, into: p.into, reason: describeEvidence(p.evidence) }))),
    prunings,
    dropped: result.dropped.map((d) => ({ into: d.plan.into, from: d.plan.from, problems: d.problems })),
    skipped: result.skipped.map((s) => ({ names: s.names, reason: s.reason })),
  };
}

export function renderPlansText(report: PlanReport): string {
  const lines: string[] = [];
  if (report.plans.length === 0) lines.push('no consolidation plans');
  for (const plan of report.plans) {
    lines.push(`${plan.kind} ${plan.from.join(', ')} → ${plan.into}`, `  ${plan.reason}`);
    for (const a of plan.archived) lines.push(`  archive ${a.from} → ${a.to}`);
    if (plan.rewritten.length > 0) lines.push(`  rewrite references in ${plan.rewritten.join(', ')}`);
    if (plan.mentionsLeft.length > 0) lines.push(`  mentions left in skills nobody may touch: ${plan.mentionsLeft.join(', ')}`);
    if (plan.llm) lines.push(plan.llm.used ? `  prose by ${plan.llm.model}` : `  deterministic umbrella kept: ${plan.llm.reason ?? ''}`);
  }
  for (const d of report.dropped) lines.push(`dropped ${d.from.join(', ')} → ${d.into}: ${d.problems.join('; ')}`);
  for (const s of report.skipped) lines.push(`skipped ${s.names.join(', ')}: ${s.reason}`);
  for (const a of report.advice ?? []) lines.push(`advice (${a.kind}) ${a.names.join(', ')}: ${a.reason}`);
  return `${lines.join('\n')}\n`;
}

/** The REPORT.md section: one paragraph per plan in words, then the structured YAML summary (DESIGN §8). */
export function renderPlansMarkdown(report: PlanReport): string {
  const out = ['## Consolidation plans', ''];
  if (report.plans.length === 0) out.push('No cluster of curated skills called for an umbrella.', '');
  for (const plan of report.plans) {
    out.push(`### ${plan.kind}: ${plan.from.map((f) => `\`${f}\``).join(', ')} → \`${plan.into}\``, '', plan.reason, '');
    out.push(
      '| pair | estimated Jaccard |',
      '|---|---|',
      ...plan.evidence.similarities.map((s) => `| \`${s.a}\` · \`${s.b}\` | ${s.jaccard.toFixed(3)} |`),
      '',
    );
    out.push(...plan.archived.map((a) => `- archive \`${a.from}\` → \`${a.to}\` (restorable)`));
    if (plan.demoted.length > 0) out.push(`- long notes moved to references/: ${plan.demoted.map((d) => `\`${d}\``).join(', ')}`);
    if (plan.rewritten.length > 0) out.push(`- references rewritten in: ${plan.rewritten.map((r) => `\`${r}\``).join(', ')}`);
    if (plan.mentionsLeft.length > 0)
      out.push(
        `- **to fix by hand**: these pinned, bundled, hub or people's skills mention a merged name and were not touched: ${plan.mentionsLeft.map((r) => `\`${r}\``).join(', ')}`,
      );
    if (plan.llm)
      out.push(
        plan.llm.used
          ? `- prose written by ${plan.llm.model}, checked by the guard`
          : `- the deterministic umbrella is kept: ${plan.llm.reason ?? 'the LLM pass failed'}`,
      );
    out.push('');
  }
  if (report.dropped.length > 0) {
    out.push('### Dropped by the content guard (never applied)', '');
    for (const d of report.dropped) out.push(`- ${d.from.map((f) => `\`${f}\``).join(', ')} → \`${d.into}\`: ${d.problems.join('; ')}`);
    out.push('');
  }
  if (report.skipped.length > 0) {
    out.push('### Left out', '', ...report.skipped.map((s) => `- ${s.names.map((n) => `\`${n}\``).join(', ')}: ${s.reason}`), '');
  }
  if (report.advice && report.advice.length > 0) {
    out.push(
      '### Advice: overlaps among skills the curator does not touch',
      '',
      ...report.advice.map((a) => `- **${a.kind}** ${a.names.map((n) => `\`${n}\``).join(', ')}: ${a.reason}`),
      '',
    );
  }
  out.push(
    '```yaml',
    stringify({ consolidations: report.consolidations, prunings: report.prunings }, { lineWidth: 0 }).trimEnd(),
    '```',
    '',
  );
  return out.join('\n');
}
