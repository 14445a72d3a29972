import type { Skipped, TranscriptSession } from '../patterns/types.js';
import { buildOutcomeFigures, readSessionOutcome, type SessionOutcome } from './outcome.js';
import { didProcedure, listSessionCommands } from './procedure.js';
import { buildSkillIndex, resolveLoad, loadNames, type EvidenceSkillInput, type SkillIndex } from './skill-index.js';
import type { AfterPatch, Certainty, EvidenceReport, EvidenceSkip, MissKind, MissedSession, SkillEvidence } from './types.js';
import { askedFor, listWordKeys } from './words.js';

export interface EvidenceOptions {
  skills: readonly EvidenceSkillInput[];
  /** Every name history knows (archived and deleted skills too): a load of one is reported as such, not as unknown. */
  historyNames?: Iterable<string>;
  /** ISO time the report treats as now. */
  now: string;
  /** Sessions before this ISO time are left out (counted in `skipped`). */
  since?: string;
  /** The fewest sessions a rate stands on (5). */
  minSessions?: number;
}

/** What is kept of one session that loaded or missed a skill: its outcome, when, and (for a miss) what was asked. */
interface SessionRecord {
  outcome: SessionOutcome;
  time: number | undefined;
  session: string;
  file: string;
  by?: MissKind;
  request?: string;
  at?: string;
}

interface SkillTally {
  offered: number;
  loaded: SessionRecord[];
  missed: SessionRecord[];
}

const maxMissedSessions = 20;
const maxRequestChars = 200;
export const defaultMinSessions = 5;

function sessionTime(session: TranscriptSession): string | undefined {
  return session.calls.find((call) => call.time !== undefined && !Number.isNaN(Date.parse(call.time)))?.time;
}

function trim(text: string): string {
  return text.length > maxRequestChars ? `${text.slice(0, maxRequestChars - 1)}…` : text;
}

/**
 * Folds sessions one at a time into per-skill evidence: `add` keeps of a session only its outcome figures and only
 * for the skills it loaded or missed, so memory grows with the evidence, not with the calls read.
 */
export class EvidenceAccumulator {
  private readonly index: SkillIndex;
  private readonly tallies: SkillTally[];
  private readonly since: number | undefined;
  private readonly minSessions: number;
  private readonly unknown = new Map<string, number>();
  private readonly archived = new Map<string, number>();
  private readonly skipped: EvidenceSkip[] = [];
  private beforeSince = 0;
  private sessions = 0;
  private calls = 0;
  private files = 0;

  constructor(private readonly options: EvidenceOptions) {
    this.index = buildSkillIndex(options.skills, options.historyNames);
    this.tallies = options.skills.map(() => ({ offered: 0, loaded: [], missed: [] }));
    this.since = options.since === undefined ? undefined : Date.parse(options.since);
    this.minSessions = options.minSessions ?? defaultMinSessions;
  }

  /** A file read: counted, and what its reader skipped kept with its reason. */
  addFile(skipped: readonly Skipped[]): void {
    this.files += 1;
    for (const skip of skipped) this.skipped.push({ file: skip.file, reason: skip.reason, count: skip.count });
  }

  /** Input the reading side could not use (a glob without match, a walk cut short). */
  addSkip(skip: EvidenceSkip): void {
    this.skipped.push(skip);
  }

  add(session: TranscriptSession): void {
    const at = sessionTime(session);
    const time = at === undefined ? undefined : Date.parse(at);
    if (time !== undefined && this.since !== undefined && time < this.since) {
      this.beforeSince += 1;
      return;
    }
    this.sessions += 1;
    this.calls += session.calls.length;
    const loaded = this.readLoads(session);
    const missed = this.readMisses(session, loaded);
    let outcome: SessionOutcome | undefined;
    const record = (extra: Partial<SessionRecord> = {}): SessionRecord => ({
      outcome: (outcome ??= readSessionOutcome(session.calls)),
      time,
      session: session.id,
      file: session.file,
      ...(at === undefined ? {} : { at }),
      ...extra,
    });
    this.index.skills.forEach((skill, i) => {
      const tally = this.tallies[i] as SkillTally;
      const existed = time === undefined || skill.existsSince === undefined || skill.existsSince <= time;
      if (loaded.has(i)) tally.loaded.push(record());
      if (existed || loaded.has(i)) tally.offered += 1;
      const miss = missed.get(i);
      if (miss !== undefined && existed) tally.missed.push(record(miss));
    });
  }

  /** The library's skills the session loaded; loads of other skills counted as unknown or archived. */
  private readLoads(session: TranscriptSession): Set<number> {
    const loaded = new Set<number>();
    const others = new Set<string>();
    for (const use of session.uses) {
      const found = resolveLoad(this.index, use.skill);
      if (found === undefined) others.add(use.skill);
      else loaded.add(found);
    }
    for (const name of others) {
      const known = loadNames(name).some((n) => this.index.historyNames.has(n));
      const map = known ? this.archived : this.unknown;
      map.set(name, (map.get(name) ?? 0) + 1);
    }
    return loaded;
  }

  /** Skills the session needed and did not load: by their procedure first, else by what was asked. */
  private readMisses(session: TranscriptSession, loaded: ReadonlySet<number>): Map<number, Partial<SessionRecord>> {
    const misses = new Map<number, Partial<SessionRecord>>();
    const hits = new Map<number, number>();
    for (const key of listSessionCommands(session.calls))
      for (const i of this.index.byCommand.get(key) ?? []) hits.set(i, (hits.get(i) ?? 0) + 1);
    const first = session.requests[0]?.text;
    for (const [i, matched] of hits) {
      if (loaded.has(i) || !didProcedure(matched, this.index.skills[i]?.commands.length ?? 0)) continue;
      misses.set(i, first === undefined ? { by: 'procedure' } : { by: 'procedure', request: trim(first) });
    }
    for (const request of session.requests) {
      const words = listWordKeys(request.text);
      const shared = new Map<number, number>();
      for (const word of words) for (const i of this.index.byWord.get(word) ?? []) shared.set(i, (shared.get(i) ?? 0) + 1);
      for (const [i, count] of shared) {
        if (loaded.has(i) || misses.has(i) || !askedFor(count, words.size)) continue;
        misses.set(i, { by: 'words', request: trim(request.text) });
      }
    }
    return misses;
  }

  finish(): EvidenceReport {
    const skills = this.index.skills
      .map((skill, i) => this.buildSkill(skill.input, this.tallies[i] as SkillTally))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const skipped = [...this.skipped];
    if (this.beforeSince > 0) skipped.push({ reason: 'sessions before --since', count: this.beforeSince });
    for (const [skill, count] of [...this.archived].sort())
      skipped.push({ skill, reason: 'loaded, but archived or deleted in the library', count });
    for (const [skill, count] of [...this.unknown].sort())
      skipped.push({ skill, reason: 'loaded, but not in the library nor its history', count });
    return {
      now: this.options.now,
      ...(this.options.since === undefined ? {} : { since: this.options.since }),
      sessions: this.sessions,
      calls: this.calls,
      files: this.files,
      min_sessions: this.minSessions,
      skills,
      budget: {},
      skipped,
    };
  }

  private buildSkill(input: EvidenceSkillInput, tally: SkillTally): SkillEvidence {
    const { loaded, missed } = tally;
    const counted = loaded.length + missed.length;
    const certainty: Certainty = counted === 0 ? 'none' : counted < this.minSessions ? 'low' : 'enough';
    const rate = certainty === 'enough' ? Math.round((loaded.length / counted) * 1000) / 1000 : null;
    const procedural = missed.filter((r) => r.by === 'procedure');
    const evidence: SkillEvidence = {
      name: input.name,
      ...(input.provenance === undefined ? {} : { provenance: input.provenance }),
      offered: tally.offered,
      loaded: loaded.length,
      missed: missed.length,
      trigger_rate: rate,
      certainty,
      with: buildOutcomeFigures(
        loaded.map((r) => r.outcome),
        this.minSessions,
      ),
      without: buildOutcomeFigures(
        procedural.map((r) => r.outcome),
        this.minSessions,
      ),
      missed_sessions: listMissed(missed),
    };
    const after = input.agentPatchedAt === undefined ? undefined : this.buildAfterPatch(input.agentPatchedAt, tally);
    return after === undefined ? evidence : { ...evidence, after_patch: after };
  }

  private buildAfterPatch(patchedAt: string, tally: SkillTally): AfterPatch | undefined {
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
        this.minSessions,
      ),
    };
  }
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

/** The report of sessions held in memory (unit inputs): the same fold, one session after another. */
export function buildEvidenceReport(sessions: readonly TranscriptSession[], options: EvidenceOptions): EvidenceReport {
  const accumulator = new EvidenceAccumulator(options);
  for (const session of sessions) accumulator.add(session);
  return accumulator.finish();
}
