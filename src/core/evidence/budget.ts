import type { ListedSkill, ListingBudget, ListingClient, SkillEvidence } from './types.js';

/**
 * How each agent client budgets the skill listing it puts in the model's context, and which descriptions fall out
 * of it. The limits, what each counts and where the figures come from: docs/listing-budget.md.
 */
export interface BudgetOptions {
  /** The model's context window in tokens (default 200,000; the `--context-tokens` option). */
  contextTokens?: number;
  /** Umbrella merges already planned (consolidation): each group becomes one listing entry once merged. */
  plannedMerges?: readonly PlannedMerge[];
  clients?: readonly ListingClient[];
}

export interface PlannedMerge {
  umbrella: string;
  members: readonly string[];
}

export const defaultContextTokens = 200_000;
export const listingClients: readonly ListingClient[] = ['claude-code', 'codex', 'gemini-cli'];
/** Clients budget characters from tokens at about four characters a token (Claude Code and Codex both say so). */
const charsPerToken = 4;
/** Claude Code caps each entry's description + when_to_use (`skillListingMaxDescChars`). */
const claudeMaxDescChars = 1536;
/** A description shortened to this is still a sentence that can say what and when: the target advice names. */
const shrinkTarget = 200;

interface Entry {
  skill: ListedSkill;
  /** The characters the entry costs without its description, and its description's as the client counts them. */
  bare: number;
  chars: number;
  /** Characters a description adds on top of the bare entry (its text and the separator before it). */
  extra: number;
}

interface ClientModel {
  source: string;
  limit: (contextTokens: number) => number;
  entry: (skill: ListedSkill) => Omit<Entry, 'skill'>;
  /** The client's own order: the first keeps its description longest. */
  rank: (a: ListedSkill, b: ListedSkill) => number;
  fit: (entries: Entry[], limit: number) => Set<string>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: ListedSkill, b: ListedSkill) => compare(a.name, b.name);
const mostUsed = (a: ListedSkill, b: ListedSkill) =>
  b.loaded - a.loaded || compare(b.last_loaded ?? '', a.last_loaded ?? '') || byName(a, b);

const models: Record<ListingClient, ClientModel> = {
  'claude-code': {
    source:
      'https://code.claude.com/docs/en/skills#skill-descriptions-are-cut-short (skillListingBudgetFraction 0.01; anthropics/claude-code#68135)',
    limit: (tokens) => Math.floor(tokens * charsPerToken * 0.01),
    entry: (s) => {
      const joined = s.description.length + (s.when_to_use ? s.when_to_use.length + (s.description ? 1 : 0) : 0);
      const chars = Math.min(joined, claudeMaxDescChars);
      return { bare: `- ${s.name}\n`.length, chars, extra: chars > 0 ? chars + 2 : 0 };
    },
    rank: mostUsed,
    fit: grantInRankOrder,
  },
  codex: {
    source:
      'https://github.com/openai/codex/blob/main/codex-rs/core-skills/src/render.rs (2% of the context window; 8,000 characters when it is unknown)',
    limit: (tokens) => Math.floor(tokens * charsPerToken * 0.02),
    entry: (s) => ({
      bare: `- ${s.name}: (file: r0/${s.name}/SKILL.md)\n`.length,
      chars: s.description.length,
      extra: s.description ? s.description.length + 1 : 0,
    }),
    rank: byName,
    fit: shortenEqually,
  },
  'gemini-cli': {
    source:
      'https://github.com/google-gemini/gemini-cli/blob/main/packages/core/src/prompts/snippets.ts (renderAgentSkills: no listing budget, every enabled skill in full)',
    limit: (tokens) => tokens * charsPerToken,
    entry: (s) => ({
      bare: `  <skill>\n    <name>${s.name}</name>\n    <description></description>\n    <location>.gemini/skills/${s.name}/SKILL.md</location>\n  </skill>\n`
        .length,
      chars: s.description.length,
      extra: s.description.length,
    }),
    rank: byName,
    fit: grantInRankOrder,
  },
};

/** Which descriptions each client's listing keeps and which fall out, with what would bring the library within it. */
export function listingBudgets(skills: readonly ListedSkill[], options: BudgetOptions = {}): Partial<Record<ListingClient, ListingBudget>> {
  const tokens = options.contextTokens ?? defaultContextTokens;
  const budgets: Partial<Record<ListingClient, ListingBudget>> = {};
  for (const client of options.clients ?? listingClients) {
    const model = models[client];
    const entries = [...skills].sort(model.rank).map((skill) => ({ skill, ...model.entry(skill) }));
    const limit = model.limit(tokens);
    const kept = model.fit(entries, limit);
    const used = entries.reduce((sum, e) => sum + e.bare + e.extra, 0);
    const fits = entries.filter((e) => kept.has(e.skill.name)).map((e) => e.skill.name);
    const dropped = entries.filter((e) => !kept.has(e.skill.name)).map((e) => e.skill.name);
    budgets[client] = {
      client,
      limit_chars: limit,
      source: model.source,
      used_chars: used,
      fits,
      dropped,
      advice: dropped.length === 0 ? [] : adviseBudget(entries, new Set(dropped), used - limit, options.plannedMerges ?? []),
    };
  }
  return budgets;
}

/** Claude Code's rule (and any client that lists in full): every name is listed; descriptions in rank order while they fit. */
function grantInRankOrder(entries: Entry[], limit: number): Set<string> {
  let used = entries.reduce((sum, e) => sum + e.bare, 0);
  const kept = new Set<string>();
  for (const e of entries) {
    if (used + e.extra > limit) break;
    used += e.extra;
    kept.add(e.skill.name);
  }
  return kept;
}

/**
 * Codex's rule (render.rs): every skill keeps its name and path; the room left is handed out one character per
 * description per round, in listing order, so every description is cut to about the same length. A description cut
 * at all does not reach the model in full: it counts as dropped. When not even the bare entries fit, none is kept.
 */
function shortenEqually(entries: Entry[], limit: number): Set<string> {
  const bare = entries.reduce((sum, e) => sum + e.bare, 0);
  if (bare > limit) return new Set();
  let left = limit - bare;
  const given = entries.map(() => 0);
  // The first character of a description also costs the space before it.
  for (let changed = true; changed;) {
    changed = false;
    entries.forEach((e, i) => {
      const had = given[i] ?? 0;
      const step = had === 0 ? 2 : 1;
      if (had < e.chars && step <= left) {
        given[i] = had + 1;
        left -= step;
        changed = true;
      }
    });
  }
  return new Set(entries.filter((e, i) => (given[i] ?? 0) >= e.chars).map((e) => e.skill.name));
}

/**
 * What would bring the library within the budget, most certain first: descriptions of needed skills the budget hides
 * (misses say sessions needed them), umbrella merges already planned (they remove entries), then the longest
 * descriptions of the least-loaded skills. A skill sessions loaded or missed is never offered for shrinking.
 */
function adviseBudget(entries: Entry[], dropped: Set<string>, over: number, merges: readonly PlannedMerge[]): string[] {
  const advice: string[] = [];
  const hiddenNeeded = entries.filter((e) => dropped.has(e.skill.name) && (e.skill.missed ?? 0) > 0);
  for (const e of hiddenNeeded.sort((a, b) => (b.skill.missed ?? 0) - (a.skill.missed ?? 0)))
    advice.push(
      `${e.skill.name}: its description falls out although sessions needed it (missed ${e.skill.missed}, loaded ${e.skill.loaded})`,
    );
  const entryOf = new Map(entries.map((e) => [e.skill.name, e]));
  const mergeSavings = merges
    .map((m) => ({ m, members: m.members.flatMap((n) => entryOf.get(n) ?? []) }))
    .filter((x) => x.members.length > 1)
    .map(({ m, members }) => {
      const costs = members.map((e) => e.bare + e.extra);
      return { m, members, saves: costs.reduce((a, b) => a + b, 0) - Math.max(...costs) };
    })
    .sort((a, b) => b.saves - a.saves);
  for (const { m, members, saves } of mergeSavings)
    advice.push(`the planned umbrella ${m.umbrella} (${members.map((e) => e.skill.name).join(', ')}) saves about ${saves} characters`);
  const evidence = entries.some((e) => e.skill.loaded > 0 || (e.skill.missed ?? 0) > 0);
  if (!evidence) {
    advice.push(`${over} characters over; no session loaded any skill, so which descriptions could shrink is not ranked`);
    return advice;
  }
  const rarely = entries
    .filter((e) => e.skill.loaded === 0 && (e.skill.missed ?? 0) === 0 && e.chars > shrinkTarget)
    .sort((a, b) => b.chars - a.chars || byName(a.skill, b.skill));
  let saved = mergeSavings.reduce((sum, x) => sum + x.saves, 0);
  for (const e of rarely) {
    if (saved >= over) break;
    const saves = e.chars - shrinkTarget;
    saved += saves;
    advice.push(`${e.skill.name}: never loaded; its ${e.chars}-character description shortened to ${shrinkTarget} saves ${saves}`);
  }
  if (saved < over) advice.push(`${over - saved} characters still over after these: fewer skills, or a larger context (--context-tokens)`);
  return advice;
}

/** The skills an advice line is about (read back by skill_evidence): the name it starts with, or a planned umbrella's members. */
export function adviceNames(advice: string): string[] {
  const members = /^the planned umbrella \S+ \(([^)]*)\)/.exec(advice)?.[1];
  if (members !== undefined) return members.split(', ');
  const colon = advice.indexOf(':');
  return colon > 0 ? [advice.slice(0, colon)] : [];
}

/** The library's listings with the evidence's loads and misses: what listingBudgets ranks and advises on. */
export function buildListedSkills(
  skills: readonly { name: string; description: string; when_to_use?: string }[],
  evidence: readonly SkillEvidence[],
): ListedSkill[] {
  const byName = new Map(evidence.map((e) => [e.name, e]));
  return skills.map((s) => ({
    name: s.name,
    description: s.description,
    ...(s.when_to_use ? { when_to_use: s.when_to_use } : {}),
    loaded: byName.get(s.name)?.loaded ?? 0,
    missed: byName.get(s.name)?.missed ?? 0,
  }));
}

const clientNames: Record<ListingClient, string> = { 'claude-code': 'Claude Code', codex: 'Codex', 'gemini-cli': 'Gemini CLI' };

/** The `evidence` command's budget lines: per client, how full the listing is, what falls out, and the advice. */
export function renderBudgetText(budget: Partial<Record<ListingClient, ListingBudget>>): string[] {
  const budgets = Object.values(budget);
  if (budgets.length === 0) return [];
  const lines = ['', 'Skill listing budget (docs/listing-budget.md):'];
  for (const b of budgets) {
    const share = `${b.used_chars} of ${b.limit_chars} characters`;
    const out =
      b.dropped.length === 0
        ? 'every description fits'
        : `${b.dropped.length} description(s) fall out: ${b.dropped.slice(0, 8).join(', ')}${b.dropped.length > 8 ? ', …' : ''}`;
    lines.push(`  ${clientNames[b.client]}: ${share}; ${out}`);
    for (const a of b.advice) lines.push(`    - ${a}`);
  }
  return lines;
}
