import { plainName } from '../layout/skill-roots.js';
import type { RegistryEntry } from './types.js';

/**
 * The other names a skill answers to: a plugin skill's plain name (`setup` for `a:setup`) when no other skill
 * has it, then a frontmatter name that differs from the folder's. A canonical name always wins over an alias.
 */
export function planAliases(
  entries: readonly Pick<RegistryEntry, 'name' | 'alias'>[],
  isCanonical: (name: string) => boolean,
): { aliases: Map<string, string>; ambiguous: Map<string, string[]> } {
  const plain = new Map<string, string[]>();
  for (const entry of entries) {
    const short = plainName(entry.name);
    if (short !== entry.name) plain.set(short, [...(plain.get(short) ?? []), entry.name]);
  }
  const aliases = new Map<string, string>();
  const ambiguous = new Map<string, string[]>();
  for (const [short, names] of plain) {
    if (isCanonical(short)) continue;
    if (names.length === 1) aliases.set(short, names[0]!);
    else ambiguous.set(short, names.sort());
  }
  for (const entry of entries) {
    const alias = entry.alias;
    if (alias && !isCanonical(alias) && !aliases.has(alias) && !ambiguous.has(alias)) aliases.set(alias, entry.name);
  }
  return { aliases, ambiguous };
}
