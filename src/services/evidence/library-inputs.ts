import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EvidenceSkillInput } from '../../core/evidence/index.js';
import type { HistoryIndex, SkillHistory } from '../../core/ledger/history-index.js';
import type { LogEntry } from '../../core/ledger/log-entry.js';
import { skillFileName } from '../../core/layout.js';
import { parseSkill, stringField } from '../../core/skill/index.js';
import type { LibrarySkill } from '../curator/read-library.js';

/** An agent's own edits of a skill: after one, is the skill loaded again? */
const agentPatchActions = new Set(['patch', 'edit', 'write-file']);

/** What history says beyond the index: merges (`Skill-Action: merge`, the first name the umbrella) and agents' patches. */
export interface LedgerFacts {
  /** Skill → the skills merged into it. */
  mergedInto: Map<string, string[]>;
  /** Skill → when an agent last patched it. */
  agentPatched: Map<string, string>;
}

export function readLedgerFacts(entries: readonly LogEntry[]): LedgerFacts {
  const mergedInto = new Map<string, string[]>();
  const agentPatched = new Map<string, string>();
  for (const entry of entries) {
    if (entry.action === 'merge' && entry.skills.length > 1) {
      const [into, ...from] = entry.skills as [string, ...string[]];
      mergedInto.set(into, [...(mergedInto.get(into) ?? []), ...from]);
    }
    if (entry.actor === 'agent' && entry.action !== null && agentPatchActions.has(entry.action)) {
      for (const skill of entry.skills) {
        const last = agentPatched.get(skill);
        if (last === undefined || Date.parse(entry.time) > Date.parse(last)) agentPatched.set(skill, entry.time);
      }
    }
  }
  return { mergedInto, agentPatched };
}

function historyOf(index: HistoryIndex, name: string): SkillHistory | undefined {
  return index.skills[name] ?? index.deleted[name];
}

/** The names whose evidence is a skill's: its former names, the skills merged into it, and theirs (one level down). */
function formerNamesOf(name: string, index: HistoryIndex, facts: LedgerFacts): string[] {
  const names = [...(historyOf(index, name)?.renamedFrom ?? [])];
  for (const from of facts.mergedInto.get(name) ?? []) names.push(from, ...(historyOf(index, from)?.renamedFrom ?? []));
  return [...new Set(names)].filter((n) => n !== name);
}

/** The earliest creation among a skill and those whose evidence it takes over. */
function existsSinceOf(names: readonly string[], index: HistoryIndex): string | undefined {
  const times = names
    .map((n) => historyOf(index, n)?.created.time)
    .filter((t): t is string => t !== undefined && !Number.isNaN(Date.parse(t)))
    .sort((a, b) => Date.parse(a) - Date.parse(b));
  return times[0];
}

function latest(times: readonly (string | undefined)[]): string | undefined {
  return times.filter((t): t is string => t !== undefined).sort((a, b) => Date.parse(b) - Date.parse(a))[0];
}

/** One library skill as the evidence reads it: its SKILL.md's listing and code, and its history. */
export async function readEvidenceSkill(skill: LibrarySkill, index: HistoryIndex, facts: LedgerFacts): Promise<EvidenceSkillInput> {
  const text = await readFile(join(skill.location.dir, skillFileName), 'utf8').catch(() => '');
  const parsed = parseSkill(text, { file: `${skill.dir}/${skillFileName}` });
  const metadata = parsed.fields.metadata;
  const nested = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).when_to_use : undefined;
  const whenToUse = stringField(parsed, 'when_to_use') ?? (typeof nested === 'string' ? nested : undefined);
  const formerNames = formerNamesOf(skill.name, index, facts);
  const existsSince = existsSinceOf([skill.name, ...formerNames], index);
  const agentPatchedAt = latest([skill.name, ...formerNames].map((n) => facts.agentPatched.get(n)));
  const folder = basename(skill.dir);
  // Named as `list` names it (`plugin:skill`); history is kept by the folder's name.
  return {
    name: skill.location.id,
    ...(folder === skill.location.id ? {} : { folder }),
    description: stringField(parsed, 'description') ?? '',
    ...(whenToUse === undefined ? {} : { when_to_use: whenToUse }),
    text,
    provenance: skill.provenance,
    ...(existsSince === undefined ? {} : { existsSince }),
    ...(formerNames.length === 0 ? {} : { formerNames }),
    ...(agentPatchedAt === undefined ? {} : { agentPatchedAt }),
  };
}
