import { listProcedureCommands } from '../patterns/procedure.js';
import { listTriggerWords } from './words.js';

/** One skill of the library as the evidence reads it: its listing, its code, and what history says. */
export interface EvidenceSkillInput {
  /** Its name as the clients call it, as `list` shows it: `plugin:skill` for a plugin's skill. */
  name: string;
  /** Its folder's name, when it differs from the name: a read of `<folder>/SKILL.md` loads it. */
  folder?: string;
  description: string;
  when_to_use?: string;
  /** The SKILL.md text (its code blocks are the procedure). */
  text: string;
  provenance?: string;
  /** When it (or the first of the skills it was renamed from or merged from) was created; absent: it always existed. */
  existsSince?: string;
  /** Names whose evidence is its own: the names it was renamed from, the skills merged into it. */
  formerNames?: readonly string[];
  /** When an agent last patched it (an agent's `patch` or `write-file` commit). */
  agentPatchedAt?: string;
}

/** A skill with what matching needs, computed once. */
export interface IndexedSkill {
  input: EvidenceSkillInput;
  existsSince: number | undefined;
  commands: readonly string[];
}

/** The library, indexed for folding sessions: names to skills, command keys and words to the skills they belong to. */
export interface SkillIndex {
  skills: IndexedSkill[];
  byName: Map<string, number>;
  byCommand: Map<string, number[]>;
  byWord: Map<string, number[]>;
  /** Names history knows (archived, deleted) that are not among the skills: a load of one is not "unknown". */
  historyNames: ReadonlySet<string>;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

export function buildSkillIndex(inputs: readonly EvidenceSkillInput[], historyNames: Iterable<string> = []): SkillIndex {
  const index: SkillIndex = { skills: [], byName: new Map(), byCommand: new Map(), byWord: new Map(), historyNames: new Set() };
  inputs.forEach((input, i) => {
    const since = input.existsSince === undefined ? undefined : Date.parse(input.existsSince);
    const commands = listProcedureCommands(input.text);
    index.skills.push({ input, existsSince: since === undefined || Number.isNaN(since) ? undefined : since, commands });
    for (const command of commands) push(index.byCommand, command, i);
    for (const word of listTriggerWords(input)) push(index.byWord, word, i);
  });
  // Own names first: a former name never takes over a skill's current one.
  inputs.forEach((input, i) => index.byName.set(input.name.toLowerCase(), i));
  // Then the other names a load may use: the folder, the plain name of a plugin's skill (`setup` of `alpha:setup`), former
  // names. One that several skills share (two plugins' `setup`) names none of them: nothing says which was loaded.
  const claims = new Map<string, Set<number>>();
  inputs.forEach((input, i) => {
    for (const alias of [input.folder, plainOf(input.name), ...(input.formerNames ?? [])]) {
      if (alias === undefined || index.byName.has(alias.toLowerCase())) continue;
      claims.set(alias.toLowerCase(), (claims.get(alias.toLowerCase()) ?? new Set()).add(i));
    }
  });
  for (const [alias, owners] of claims) if (owners.size === 1) index.byName.set(alias, [...owners][0] as number);
  const known = new Set<string>();
  for (const name of historyNames) if (!index.byName.has(name.toLowerCase())) known.add(name.toLowerCase());
  index.historyNames = known;
  return index;
}

function plainOf(name: string): string | undefined {
  const colon = name.lastIndexOf(':');
  return colon < 0 ? undefined : name.slice(colon + 1);
}

/** The names a load may use for a skill: as written, and without a plugin's namespace (`document-skills:pdf` → `pdf`). */
export function loadNames(name: string): string[] {
  const bare = name.trim().replace(/^\//, '').toLowerCase();
  const colon = bare.lastIndexOf(':');
  return colon < 0 ? [bare] : [bare, bare.slice(colon + 1)];
}

/** The skill a load names, by its name, folder, former names or a merged skill's name. */
export function resolveLoad(index: SkillIndex, name: string): number | undefined {
  for (const candidate of loadNames(name)) {
    const found = index.byName.get(candidate);
    if (found !== undefined) return found;
  }
  return undefined;
}
