import type { Skipped, TranscriptSession } from '../patterns/types.js';
import { buildSkillEvidence, type SessionRecord, type SkillTally } from './figures.js';
import { readSessionOutcome, type SessionOutcome } from './outcome.js';
import { didProcedure, listSessionCommands } from '../patterns/procedure.js';
import { buildSkillIndex, resolveLoad, loadNames, type EvidenceSkillInput, type SkillIndex } from './skill-index.js';
import type { EvidenceReport, EvidenceSkip } from './types.js';
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

const maxRequestChars = 200;
export const defaultMinSessions = 5;

function sessionTime(session: TranscriptSession): string | undefined {
  return session.calls.find((call) => call.time !== undefined && !Number.isNaN(Date.parse(call.time)))?.time;
}

/** Claude Code names a sub-agent's session `<parent>/<agent>` (collector: `agentId`, `isSidechain`). */
function isSubagent(session: TranscriptSession): boolean {
  return session.format === 'claude-code' && session.id.includes('/');
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
  /** The times of the sessions counted, and how many had none: each skill's `offered` is read from them. */
  private readonly times: number[] = [];
  private untimed = 0;
  private sessions = 0;
  private calls = 0;
  private files = 0;

  constructor(private readonly options: EvidenceOptions) {
    this.index = buildSkillIndex(options.skills, options.historyNames);
    this.tallies = options.skills.map(() => ({ loadedBeforeCreation: 0, loaded: [], missed: [] }));
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
    // A sub-agent does what its parent asked, often under a skill the parent loaded: its work is never a miss.
    const missed = isSubagent(session) ? new Map<number, Partial<SessionRecord>>() : this.readMisses(session, loaded);
    let outcome: SessionOutcome | undefined;
    const record = (extra: Partial<SessionRecord> = {}): SessionRecord => ({
      outcome: (outcome ??= readSessionOutcome(session.calls)),
      time,
      session: session.id,
      file: session.file,
      ...(at === undefined ? {} : { at }),
      ...extra,
    });
    if (time === undefined) this.untimed += 1;
    else this.times.push(time);
    // Only the skills this session loaded or missed are touched: `offered` is counted from the session times at the end.
    for (const i of loaded) {
      const tally = this.tallies[i] as SkillTally;
      tally.loaded.push(record());
      if (!this.existed(i, time)) tally.loadedBeforeCreation += 1;
    }
    for (const [i, miss] of missed) if (this.existed(i, time)) (this.tallies[i] as SkillTally).missed.push(record(miss));
  }

  private existed(skill: number, time: number | undefined): boolean {
    const since = this.index.skills[skill]?.existsSince;
    return time === undefined || since === undefined || since <= time;
  }

  /** Sessions in which the skill existed (untimed ones included), and those that loaded it before history says it existed. */
  private countOffered(skill: number, sortedTimes: Float64Array): number {
    const since = this.index.skills[skill]?.existsSince;
    const tally = this.tallies[skill] as SkillTally;
    if (since === undefined) return this.untimed + sortedTimes.length;
    let lo = 0;
    let hi = sortedTimes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((sortedTimes[mid] as number) < since) lo = mid + 1;
      else hi = mid;
    }
    return this.untimed + sortedTimes.length - lo + tally.loadedBeforeCreation;
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
    const sorted = Float64Array.from(this.times).sort();
    const skills = this.index.skills
      .map((skill, i) => buildSkillEvidence(skill.input, this.tallies[i] as SkillTally, this.countOffered(i, sorted), this.minSessions))
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
}

/** The report of sessions held in memory (unit inputs): the same fold, one session after another. */
export function buildEvidenceReport(sessions: readonly TranscriptSession[], options: EvidenceOptions): EvidenceReport {
  const accumulator = new EvidenceAccumulator(options);
  for (const session of sessions) accumulator.add(session);
  return accumulator.finish();
}
