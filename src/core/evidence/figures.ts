import { buildOutcomeFigures, type SessionOutcome } from './outcome.js';
import type { EvidenceSkillInput } from './skill-index.js';
import type { AfterPatch, Certainty, MissKind, MissedSession, SkillEvidence } from './types.js';

/** What is kept of one session that loaded or missed a skill: its outcome, when, and (for a miss) what was asked. */
export interface SessionRecord {
  outcome: SessionOutcome;
  time: number | undefined;
  session: string;
  file: string;
  by?: MissKind;
  request?: string;
  at?: string;
}

/** One skill's sessions, as the fold gathers them. */
export interface SkillTally {
  /** Loads in sessions from before the skill's creation in history (it lived elsewhere first): offered all the same. */
  loadedBeforeCreation: number;
  loaded: SessionRecord[];
  missed: SessionRecord[];
}

const maxMissedSessions = 20;

/** One skill's figures from its sessions; a rate stands on `minSessions` sessions or is null. */
export function buildSkillEvidence(input: EvidenceSkillInput, tally: SkillTally, offered: number, minSessions: number): SkillEvidence {
  const { loaded, missed } = tally;
  const counted = loaded.length + missed.length;
  const certainty: Certainty = counted === 0 ? 'none' : counted < minSessions ? 'low' : 'enough';
  const rate = certainty === 'enough' ? Math.round((loaded.length / counted) * 1000) / 1000 : null;
  // Without it: the sessions that did its procedure by hand. A miss by words alone says nothing about how the job went.
  const byHand = missed.filter((r) => r.by === 'procedure');
  const evidence: SkillEvidence = {
    name: input.name,
    ...(input.provenance === undefined ? {} : { provenance: input.provenance }),
    offered,
    loaded: loaded.length,
    missed: missed.length,
    trigger_rate: rate,
    certainty,
    with: buildOutcomeFigures(
      loaded.map((r) => r.outcome),
      minSessions,
    ),
    without: buildOutcomeFigures(
      byHand.map((r) => r.outcome),
      minSessions,
    ),
    missed_sessions: listMissed(missed),
  };
  const after = input.agentPatchedAt === undefined ? undefined : buildAfterPatch(input.agentPatchedAt, tally, minSessions);
  return after === undefined ? evidence : { ...evidence, after_patch: after };
}

/** Loads and misses before and after an agent's last patch (timed sessions only), and how the sessions since went. */
function buildAfterPatch(patchedAt: string, tally: SkillTally, minSessions: number): AfterPatch | undefined {
  const at = Date.parse(patchedAt);
  if (Number.isNaN(at)) return undefined;
  const before = (records: SessionRecord[]) => records.filter((r) => r.time !== undefined && r.time < at).length;
  const after = (records: SessionRecord[]) => records.filter((r) => r.time !== undefined && r.time >= at);
  return {
    patched_at: patchedAt,
    loaded_before: before(tally.loaded),
    loaded_after: after(tally.loaded).length,
    missed_before: before(tally.missed),
    missed_after: after(tally.missed).length,
    with_after: buildOutcomeFigures(
      after(tally.loaded).map((r) => r.outcome),
      minSessions,
    ),
  };
}

/** The newest missed sessions first (those without a time last), at most twenty. */
function listMissed(records: readonly SessionRecord[]): MissedSession[] {
  return [...records]
    .sort((a, b) => (b.time ?? -Infinity) - (a.time ?? -Infinity) || (a.session < b.session ? -1 : 1))
    .slice(0, maxMissedSessions)
    .map((r) => ({
      session: r.session,
      file: r.file,
      by: r.by ?? 'procedure',
      ...(r.request === undefined ? {} : { request: r.request }),
      ...(r.at === undefined ? {} : { time: r.at }),
    }));
}
