import type { ParsedSkill } from '../skill/types.js';
import { metaDir } from '../layout.js';

/**
 * Pins live in a tracked file of their own, one name a line, so pinning never
 * adds a key that the configured profile rejects (`spec` allows no `pinned`).
 * A frontmatter `pinned: true` (or `metadata.pinned: "true"`, where a profile
 * keeps such state in `metadata`) is still read: libraries written that way
 * keep their pins.
 */
export const pinsFile = `${metaDir}/pins.txt`;

export function parsePins(text: string | undefined): Set<string> {
  if (!text) return new Set();
  return new Set(
    text
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean),
  );
}

export function serializePins(names: Iterable<string>): string {
  const sorted = [...new Set(names)].sort();
  return sorted.length === 0 ? '' : `${sorted.join('\n')}\n`;
}

/** The skill's own file says it is pinned. */
export function isPinnedInFile(skill: Pick<ParsedSkill, 'fields'>): boolean {
  const fields = skill.fields as Record<string, unknown>;
  const metadata = fields.metadata as Record<string, unknown> | undefined;
  return fields.pinned === true || metadata?.pinned === 'true' || metadata?.pinned === true;
}
