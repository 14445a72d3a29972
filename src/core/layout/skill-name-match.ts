import { plainName } from './skill-roots.js';

/** What a lookup needs of a skill: the name clients call it by and its folder's. */
export interface NamedSkill {
  /** `plugin:skill` for a plugin's skill, else the folder's name. */
  id: string;
  /** The folder's name. */
  name: string;
}

/**
 * The skills a name given by a person or an agent means: those whose id it is, else those whose plain name it
 * is (`setup` finds `a:setup`, and also `b:setup`: the caller then asks which). Commands share this one rule.
 */
export function matchSkillName<T extends NamedSkill>(skills: readonly T[], name: string): T[] {
  const exact = skills.filter((s) => s.id === name);
  if (exact.length > 0) return exact;
  const plain = plainName(name) === name ? name : undefined;
  return plain === undefined ? [] : skills.filter((s) => s.name === plain || plainName(s.id) === plain);
}

/** The qualified names a plain one leaves open, when it names skills of several plugins. */
export function ambiguousIds(matches: readonly Pick<NamedSkill, 'id'>[]): string[] | undefined {
  const ids = [...new Set(matches.map((m) => m.id))].sort();
  return ids.length > 1 ? ids : undefined;
}
