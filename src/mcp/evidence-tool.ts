import { adviceNames } from '../core/evidence/budget.js';
import type { EvidenceReport, ListingClient } from '../core/evidence/types.js';

/** Where skill_evidence reads its transcripts: the repository's `transcripts` setting, as curate and detect do. */
export const noTranscripts =
  'skill_evidence needs transcripts: set `transcripts:` in .skillgarden/config.yaml to globs of your agent sessions (relative to the repository, or absolute such as /home/me/.claude/projects/**/*.jsonl), as for curate and detect, then call it again.';

/** One client's listing as it concerns one skill: whether its description reaches the model, and where it ranks. */
export interface SkillListing {
  client: ListingClient;
  listed: 'fits' | 'dropped';
  /** 1-based place in the client's own order (most-used first for Claude Code, name order for the others). */
  rank: number;
  of: number;
  limit_chars: number;
  used_chars: number;
  source: string;
  /** The budget's advice lines that name this skill. */
  advice: string[];
}

export type EvidenceAnswer = { ok: true; text: string } | { ok: false; text: string };

/** skill_evidence's answer: the skill's figures and the budgets it appears in, or why there are none. */
export function answerSkillEvidence(report: EvidenceReport | undefined, name: string): EvidenceAnswer {
  if (report === undefined) return { ok: false, text: noTranscripts };
  const skill = report.skills.find((s) => s.name === name);
  if (skill === undefined) {
    const known = report.skills.map((s) => s.name);
    return {
      ok: false,
      text: `no evidence for "${name}": it is not a skill of the library the transcripts were read against (${known.length} skills${known.length > 0 ? `: ${known.slice(0, 20).join(', ')}${known.length > 20 ? ', …' : ''}` : ''}). Call skills_list for the names.`,
    };
  }
  const budgets = Object.values(report.budget).flatMap((b): SkillListing[] => {
    const order = [...b.fits, ...b.dropped];
    const rank = rankIn(b.client, b.fits, b.dropped, name);
    if (rank < 0) return [];
    return [
      {
        client: b.client,
        listed: b.fits.includes(name) ? 'fits' : 'dropped',
        rank: rank + 1,
        of: order.length,
        limit_chars: b.limit_chars,
        used_chars: b.used_chars,
        source: b.source,
        advice: b.advice.filter((a) => adviceNames(a).includes(name)),
      },
    ];
  });
  const context = {
    now: report.now,
    ...(report.since ? { since: report.since } : {}),
    sessions: report.sessions,
    min_sessions: report.min_sessions,
  };
  return { ok: true, text: `${JSON.stringify({ ...context, skill, budgets }, null, 2)}\n` };
}

/** fits and dropped each keep the client's order; Claude Code's fits are its most-used, so they rank first. */
function rankIn(client: ListingClient, fits: readonly string[], dropped: readonly string[], name: string): number {
  if (client === 'claude-code') return [...fits, ...dropped].indexOf(name);
  return [...fits, ...dropped].sort().indexOf(name);
}
