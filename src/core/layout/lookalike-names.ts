import { finding, type Finding } from '../findings.js';
import { latinLookalikes } from '../scan/confusables.js';

/** What a name looks like: NFKC-folded (NFC/NFD pairs, fullwidth letters), lower case, look-alike letters made Latin. */
export function nameSkeleton(name: string): string {
  let out = '';
  for (const char of name.normalize('NFKC').toLowerCase()) out += latinLookalikes[char] ?? char;
  return out;
}

/**
 * Names that differ as strings but look the same — one in NFC and one in NFD, or `dеploy` with a Cyrillic `е` beside
 * `deploy` — are two skills a person cannot tell apart and an agent may load either of: an error on each later one.
 */
export function findLookalikeNames(skills: ReadonlyArray<{ id: string; path: string; file: string }>): Finding[] {
  const first = new Map<string, { id: string; path: string }>();
  const findings: Finding[] = [];
  for (const skill of skills) {
    const key = nameSkeleton(skill.id);
    const seen = first.get(key);
    if (seen === undefined) {
      first.set(key, skill);
      continue;
    }
    if (seen.id === skill.id) continue;
    const how =
      seen.id.normalize('NFC') === skill.id.normalize('NFC') ? 'only by Unicode normalization (NFC/NFD)' : 'only by look-alike characters';
    findings.push(
      finding({
        code: 'library/lookalike-name',
        severity: 'error',
        file: skill.file,
        message: `"${escapeName(skill.id)}" (${skill.path}) differs from "${escapeName(seen.id)}" (${seen.path}) ${how}`,
        hint: 'Rename one with plain ASCII letters: a person cannot tell the two apart, and an agent may load either.',
      }),
    );
  }
  return findings;
}

/** Non-ASCII characters shown as code points, so the message shows the difference it reports. */
function escapeName(name: string): string {
  return name.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}
