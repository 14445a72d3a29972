import { stringify } from 'yaml';
import { buildTaskName, buildUniqueName } from './draft-name.js';
import { renderDoneWhen, renderSteps, summarizeSteps, doneClauses } from './draft-steps.js';
import { buildPatternEvals } from './draft-evals.js';
import { buildPatternEvidence, type PatternEvidence } from './evidence.js';
import { indexSessions, isIndex, type MinedSession, type SessionIndex } from './session-index.js';
import { isGenericSequence, isGenericToken } from './generic.js';
import { commandName } from './shape.js';
import { buildCommandKey, didProcedure, isUbiquitousCommand } from './procedure.js';
import { distinctiveCommands, listSkillCommandHeads } from './skill-commands.js';

import type { DetectedPattern, DraftSkill, Pattern } from './types.js';

export interface ExistingSkill {
  name: string;
  /** The whole SKILL.md text. */
  text: string;
}

/**
 * `spec`: only Agent Skills spec keys at the top (`name`, `description`,
 * `metadata`), with `version`, `pinned` and `when_to_use` as strings under
 * `metadata`, so drafts pass the strict `spec` profile. `runtime`: those three
 * at the top as DESIGN §7 lists them (valid under the default profile).
 */
export type DraftProfile = 'spec' | 'runtime';

/** How many drafts a run may propose and how strong each must be (`patterns:` in the config). */
export interface DraftLimits {
  max_drafts: number;
  min_sessions: number;
  min_confidence: number;
}

export const defaultDraftLimits: Readonly<DraftLimits> = Object.freeze({ max_drafts: 5, min_sessions: 3, min_confidence: 0.3 });

/** The defaults overlaid with the numbers the caller set (anything else is ignored). */
export function resolveDraftLimits(partial: Readonly<Record<string, unknown>> = {}): DraftLimits {
  const limits = { ...defaultDraftLimits };
  for (const key of Object.keys(defaultDraftLimits) as (keyof DraftLimits)[]) {
    const value = partial[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) limits[key] = value;
  }
  return limits;
}

export interface DraftOptions {
  profile?: DraftProfile;
  /**
   * The sessions mined: a draft is read from them (requests, arguments, endings). Without them nothing is drafted.
   * Either the sessions themselves or their index (`SessionStore.index()`, which holds them packed).
   */
  sessions?: readonly MinedSession[] | SessionIndex;
  /** Whether tokens were refined by program when mining (true). */
  refine?: boolean;
  limits?: Partial<DraftLimits>;
}

const maxDescription = 1024;

function clean(text: string): string {
  return text.replace(/[<>]/g, '').replace(/\s+/g, ' ').trim();
}

/** An existing skill with the commands its own steps run (read once per run, `listCoverageCommands`). */
interface CoverageSkill extends ExistingSkill {
  commands?: readonly string[];
}

/**
 * The commands that name a procedure, as coverage compares them: each command's key (`buildCommandKey`, the one
 * evidence matches a skill's procedure with; a program outside the known ones by its name), without the ones every
 * task runs (`npm test`, `git commit`) or that only look around (`git status`): those say nothing about which skill.
 */
function listCoverageCommands(details: readonly string[]): string[] {
  const keys = details.map((detail) => buildCommandKey(detail) ?? commandName(detail));
  return [...new Set(keys)].filter((key) => !isUbiquitousCommand(key));
}

/** A skill's commands for coverage, read from its own steps. */
function skillCoverageCommands(skill: CoverageSkill): readonly string[] {
  return skill.commands ?? listCoverageCommands(listSkillCommandHeads(skill.text));
}

/**
 * The skill that already covers a pattern, and the commands they share: the skill records the pattern's
 * fingerprint, or the pattern ran its procedure — every command of the pattern that names a procedure is one of the
 * skill's, or the pattern ran at least two and at least half of the skill's (`didProcedure`, the evidence's miss
 * rule: a session that did this by hand missed the skill, so a draft of it would copy the skill). `commands`: the
 * pattern's shell steps as run (`npm version patch`). A tool's name as a word in the prose is not coverage, nor is a
 * command every task runs: a pattern with no command that names a procedure is covered by its fingerprint only.
 */
export function findCoveringSkill(
  pattern: Pattern,
  existing: readonly CoverageSkill[],
  commands: readonly string[] = [],
): { name: string; shared: string[] } | undefined {
  const wanted = listCoverageCommands(commands);
  for (const skill of existing) {
    if (skill.text.includes(pattern.fingerprint)) return { name: skill.name, shared: [] };
    if (wanted.length === 0) continue;
    const own = skillCoverageCommands(skill);
    const shared = wanted.filter((key) => own.includes(key));
    if (shared.length === wanted.length || didProcedure(shared.length, own.length)) return { name: skill.name, shared };
  }
  return undefined;
}

/**
 * Each step's details as the draft shows them: the representative session's
 * commands, whole, with only the arguments that vary across sessions as
 * placeholders (`representative.ts`); the counts across sessions when no
 * session stands for the pattern (unit inputs).
 */
function stepDetails(found: PatternEvidence): ReadonlyArray<ReadonlyArray<[string, number]>> {
  const steps = found.representative?.steps;
  if (steps === undefined) return found.details;
  const sessions = found.evidence.sessions.length;
  return steps.map((detail): Array<[string, number]> => (detail === '' ? [] : [[detail, sessions]]));
}

/** The task in words, and a request that says it: both from the representative session when there is one. */
function taskWording(found: PatternEvidence): { phrase: string; example?: string } {
  const rep = found.representative;
  const phrase = (rep ? rep.phrase : found.task.phrase) ?? found.task.nameWords.join(' ');
  const example = rep ? rep.request : found.task.example;
  return example === undefined ? { phrase } : { phrase, example };
}

/** The commands of a pattern's shell steps, as its representative session ran them (`npm version patch`). */
function patternCommands(pattern: Pattern, found: PatternEvidence): string[] {
  const details = stepDetails(found);
  return pattern.tools.flatMap((token, i) => {
    const top = details[i]?.[0]?.[0];
    return token.includes(':') && top !== undefined ? top.split(' && ') : [];
  });
}

function quote(text: string, max: number): string {
  const flat = clean(text).replace(/"/g, "'");
  return flat.length > max ? `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…` : flat;
}

function listed(values: readonly string[], max: number): string {
  return values.length <= max ? values.join(', ') : `${values.slice(0, max).join(', ')} (+${values.length - max} more)`;
}

/** The draft's description and when_to_use, in the task's words. */
function buildWording(pattern: Pattern, found: PatternEvidence): { description: string; whenToUse: string; title: string } {
  const task = taskWording(found);
  const phrase = quote(task.phrase, 90);
  const title = phrase.replace(/^./, (c) => c.toUpperCase());
  const ending = found.evidence.ending;
  const summary = summarizeSteps(pattern.tools, stepDetails(found));
  const example = task.example === undefined ? '' : `, as in "${quote(task.example, 140)}"`;
  const whenToUse = clean(`When a person asks to ${phrase}${example}.`);
  const description = clean(
    `${title}: ${summary}${ending === undefined ? '' : `, ${doneClauses[ending]}`}. Use when asked to ${phrase}${example} (the procedure of ${pattern.sessions} agent sessions).`,
  ).slice(0, maxDescription);
  return { description, whenToUse, title };
}

function buildFrontmatter(pattern: Pattern, name: string, found: PatternEvidence, profile: DraftProfile): Record<string, unknown> {
  const { description, whenToUse } = buildWording(pattern, found);
  const e = found.evidence;
  const origin: Record<string, string> = {
    source: 'skillgarden detect',
    fingerprint: pattern.fingerprint,
    tools: pattern.tools.join(' → '),
    sessions: String(pattern.sessions),
    session_ids: listed(e.sessions, 10),
    transcripts: listed(e.files, 10),
    ...(e.first_seen === undefined ? {} : { first_seen: e.first_seen }),
    ...(e.last_seen === undefined ? {} : { last_seen: e.last_seen }),
  };
  if (profile === 'runtime') return { name, description, version: '0.1.0', pinned: false, when_to_use: whenToUse, metadata: origin };
  // A draft is not pinned: saying so as the string "false" under metadata told a reader nothing and looked like a bug.
  return { name, description, metadata: { version: '0.1.0', when_to_use: whenToUse, ...origin } };
}

/** One SKILL.md draft for a pattern, read from its evidence. */
export function buildDraft(pattern: Pattern, name: string, found: PatternEvidence, profile: DraftProfile = 'spec'): DraftSkill {
  const frontmatter = stringify(buildFrontmatter(pattern, name, found, profile), { lineWidth: 0 });
  const { title } = buildWording(pattern, found);
  const ending = found.evidence.ending;
  const lastDetail = stepDetails(found)
    .slice(-2)
    .map((step) => step[0]?.[0]?.split(' && ').pop())
    .filter((d): d is string => d !== undefined)
    .pop();
  const done = renderDoneWhen(ending, lastDetail);
  const asked = found.evidence.requests.map((r) => `- "${quote(r, 160)}"`);
  const body = [
    `# ${title}`,
    '',
    `<!-- Drafted by skillgarden from ${pattern.sessions} agent sessions (pattern ${pattern.fingerprint}); the evidence is in the metadata. Review the steps before adopting it. -->`,
    '',
    '## When to use',
    '',
    `When a person asks to ${quote(taskWording(found).phrase, 90)}. Requests that led to this procedure:`,
    '',
    ...asked,
    '',
    '## Steps',
    '',
    ...renderSteps(pattern.tools, stepDetails(found), ending),
    '',
    ...(done === undefined ? [] : ['## Done when', '', done, '']),
  ].join('\n');
  return {
    name,
    fingerprint: pattern.fingerprint,
    text: `---\n${frontmatter}---\n\n${body}`,
    evidence: found.evidence,
  };
}

interface Candidate {
  index: number;
  pattern: Pattern;
  found: PatternEvidence;
  name: string;
}

/** Overlap coefficient of two session sets: how much of the smaller one the larger holds. */
function sessionOverlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  // The smaller set walked: a pattern of 400,000 sessions beside one of 3,000 costs 3,000 look-ups.
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const id of small) if (large.has(id)) shared += 1;
  return shared / Math.max(1, Math.min(a.size, b.size));
}

/** Nested or overlapping patterns of the same sessions (or of the same task) fall into one group. */
function groupCandidates(candidates: readonly Candidate[]): Candidate[][] {
  const groups: Candidate[][] = [];
  for (const candidate of candidates) {
    const group = groups.find((g) =>
      g.some(
        (other) =>
          other.name === candidate.name ||
          (sessionOverlap(other.found.sessionIds, candidate.found.sessionIds) >= 0.5 &&
            other.pattern.tools.some((t) => candidate.pattern.tools.includes(t))),
      ),
    );
    if (group === undefined) groups.push([candidate]);
    else group.push(candidate);
  }
  return groups;
}

/** Why a pattern gets no draft of its own, before its sessions are read; undefined when it may get one. */
function screen(pattern: Pattern, limits: DraftLimits): string | undefined {
  if (pattern.sessions < limits.min_sessions)
    return `seen in ${pattern.sessions} sessions, fewer than min_sessions (${limits.min_sessions})`;
  if (pattern.confidence < limits.min_confidence)
    return `confidence ${pattern.confidence.toFixed(2)} is below min_confidence (${limits.min_confidence})`;
  if (isGenericSequence(pattern.tools)) return 'only reads, searches, edits or finishes: every task does that, so it names none';
  return undefined;
}

/**
 * Why a pattern is a working habit rather than a procedure, or undefined: every shell command it runs is one every
 * task runs (`npm test`, `git commit`) or only looks around, and its other steps only read, search or edit. Test →
 * edit → test is how any agent fixes anything; a skill of it would tell the agent what it already does (SkillsBench:
 * self-generated skills of this kind change nothing), so no maintainer would merge it. A step of any other tool
 * (an MCP server's, a program outside the known ones) names a procedure and keeps the pattern.
 */
function describeHabit(pattern: Pattern, commands: readonly string[]): string | undefined {
  if (pattern.tools.some((token) => !token.includes(':') && !isGenericToken(token))) return undefined;
  if (commands.length === 0 || listCoverageCommands(commands).length > 0) return undefined;
  // Named by their keys only (`npm test`): a command's arguments are a session's own words.
  const shown = [...new Set(commands.flatMap((c) => buildCommandKey(c) ?? []))].slice(0, 3);
  const named = shown.length === 0 ? '' : ` (${shown.join(', ')})`;
  return `runs only commands every task runs${named} between reads and edits: a working habit, not a procedure a skill would add`;
}

/**
 * Drafts a few SKILL.md proposals from the patterns (DESIGN §7): a pattern an
 * existing skill covers, a generic one (reads and edits only), a weak one
 * (below the limits) or one whose sessions asked for nothing in common gets
 * no draft, with the reason; nested or overlapping patterns of the same
 * sessions fold into one draft (the longest); at most `max_drafts`.
 * Drafts are proposals: nothing is written.
 */
export function draftPatterns(
  patterns: readonly Pattern[],
  existing: readonly ExistingSkill[],
  options: DraftOptions = {},
): DetectedPattern[] {
  const limits = { ...defaultDraftLimits, ...options.limits };
  const out: DetectedPattern[] = patterns.map((p) => ({ ...p }));
  const candidates: Candidate[] = [];
  let library: CoverageSkill[] | undefined;
  let indexed: SessionIndex | undefined;
  patterns.forEach((pattern, index) => {
    const detected = out[index] as DetectedPattern;
    const recorded = findCoveringSkill(pattern, existing);
    if (recorded !== undefined) return void (detected.coveredBy = recorded.name);
    const reason = screen(pattern, limits);
    if (reason !== undefined) return void (detected.reason = reason);
    const sessions = options.sessions ?? [];
    indexed ??= isIndex(sessions) ? sessions : indexSessions(sessions, options.refine ?? true);
    const found = buildPatternEvidence(pattern.tools, indexed);
    // A skill the sessions loaded serves the pattern: drafting it again would duplicate a skill that works.
    const served = found.loaded[0];
    if (served !== undefined && served[1] * 2 >= found.sessionIds.size) {
      detected.coveredBy = served[0];
      return void (detected.reason = `sessions loaded ${served[0]} (${served[1]} of its ${found.sessionIds.size}): a skill that works, not a new one`);
    }
    const commands = patternCommands(pattern, found);
    const habit = describeHabit(pattern, commands);
    if (habit !== undefined) return void (detected.reason = habit);
    library ??= existing.map((skill) => ({ ...skill, commands: skillCoverageCommands(skill) }));
    const covering = findCoveringSkill(pattern, library, commands);
    if (covering !== undefined) {
      detected.coveredBy = covering.name;
      return void (detected.reason = `${covering.name} already runs these commands (${covering.shared.join(', ')})`);
    }
    // One recurring word (`test`) is a coincidence of three requests, not a task.
    const name = found.task.nameWords.length >= 2 ? buildTaskName(found.task.nameWords) : undefined;
    if (name === undefined)
      return void (detected.reason = `what people asked before it has ${found.task.nameWords.length === 0 ? 'no words' : `only one word (${found.task.nameWords[0]})`} in common: no task to name it after`);
    candidates.push({ index, pattern, found, name });
  });
  const taken = new Set(existing.map((skill) => skill.name));
  const groups = groupCandidates(candidates);
  groups.forEach((group, rank) => {
    const lead = [...group].sort(
      (a, b) => b.pattern.tools.length - a.pattern.tools.length || b.pattern.confidence - a.pattern.confidence,
    )[0] as Candidate;
    if (rank >= limits.max_drafts) {
      for (const c of group)
        (out[c.index] as DetectedPattern).reason = `beyond max_drafts (${limits.max_drafts}): stronger patterns were drafted first`;
      return;
    }
    const name = buildUniqueName(lead.name, taken);
    taken.add(name);
    const built = buildDraft(lead.pattern, name, lead.found, options.profile);
    // Every candidate was read from the index, so it is built here.
    const index = options.sessions === undefined ? undefined : indexed;
    const commands = distinctiveCommands(patternCommands(lead.pattern, lead.found).map(commandName));
    const draft = index ? { ...built, evals: buildPatternEvals(name, commands, lead.found, index) } : built;
    const absorbs = group.filter((c) => c !== lead).map((c) => c.pattern.fingerprint);
    (out[lead.index] as DetectedPattern).draft = absorbs.length > 0 ? { ...draft, absorbs } : draft;
    for (const c of group) if (c !== lead) (out[c.index] as DetectedPattern).collapsedInto = name;
  });
  return out;
}
