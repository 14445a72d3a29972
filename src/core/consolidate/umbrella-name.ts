import { listTaskWords } from '../patterns/task-words.js';
import type { SkillFeatures } from './features.js';
import { splitTitle } from './markdown.js';

/** Words that say a skill is a skill, not what it is about: no umbrella is named for them. */
const generic = new Set(
  'skill skills notes note guide guides tips tip reference references help helps helper task tasks step steps procedure instructions docs documentation example examples overview general common basic various useful quick how-to'.split(
    ' ',
  ),
);

/**
 * The class the members' names say: the longest run of name tokens every name
 * holds, wherever it stands (`rl-training` in `slime-rl-training` and
 * `verl-rl-training`; `systematic-debugging` in it and
 * `systematic-debugging-superpowers`). Null when shorter than `minLength`
 * characters or made only of words that say a skill is a skill. Ties go to
 * the run that stands first in the first name.
 */
export function findSharedNameRun(names: readonly string[], minLength: number): string | null {
  const [first, ...rest] = names.map((n) => n.split('-'));
  if (!first) return null;
  const others = rest.map((tokens) => `-${tokens.join('-')}-`);
  for (let length = first.length; length >= 1; length--) {
    for (let start = 0; start + length <= first.length; start++) {
      const run = first.slice(start, start + length);
      if (run.every((t) => generic.has(t))) continue;
      const joined = run.join('-');
      if (joined.length >= minLength && others.every((o) => o.includes(`-${joined}-`))) return joined;
    }
  }
  return null;
}

/**
 * What a member says about itself where a person looks first (its title and
 * description): its content words, and the pairs of them that stand next to
 * each other in the text (`web service`).
 */
function wordsOf(member: SkillFeatures, prefix: string, stem: string): { words: string[]; pairs: string[] } {
  const description = typeof member.parsed.fields.description === 'string' ? member.parsed.fields.description : '';
  const title = splitTitle(member.parsed.body).title ?? '';
  const text = `${title}. ${description}`;
  // A word that repeats the prefix (`deploying` for `deploy`, `vcf` for `tiledbvcf`) adds nothing to the name.
  const content = new Set(
    listTaskWords(text).filter((w) => !generic.has(w) && !w.startsWith(stem) && !prefix.includes(w) && /^[a-z][a-z0-9]*$/.test(w)),
  );
  const raw = text.toLowerCase().split(/[^a-z0-9']+/);
  const words = raw.filter((w) => content.has(w));
  const pairs = raw.slice(1).flatMap((w, i) => (content.has(raw[i] as string) && content.has(w) && raw[i] !== w ? [`${raw[i]}-${w}`] : []));
  return { words, pairs };
}

/**
 * A telling name for a new umbrella whose members share only a one-word
 * prefix while other skills of the library share it too (issue #15: four git
 * skills became `git`, "for any git task", with a git skill left outside):
 * the prefix and what every member says it is about — a pair of words every
 * title and description has, side by side (`deploy-web-service`), else the
 * word every member has that is said most often (`git-history`). Undefined
 * when every skill of the prefix is a member (`networkx` covers all of
 * networkx) or the members share no such word: the bare prefix is then the
 * best name there is. Pure and deterministic: ties go to the word the first
 * member says first. Read from three members or more: two share a phrase by
 * chance too often.
 */
export function findTellingName(prefix: string, members: readonly SkillFeatures[], names: ReadonlySet<string>): string | undefined {
  if (prefix.includes('-') || members.length < 3) return undefined;
  const inside = new Set(members.map((m) => m.name));
  const outside = [...names].some((n) => !inside.has(n) && (n === prefix || n.startsWith(`${prefix}-`)));
  if (!outside) return undefined;
  const stem = prefix.length > 4 ? prefix.slice(0, -1) : prefix;
  const said = [...members].sort((a, b) => a.name.localeCompare(b.name)).map((m) => wordsOf(m, prefix, stem));
  const inAll = (key: string, sets: ReadonlyArray<ReadonlySet<string>>) => sets.every((s) => s.has(key));
  const pairSets = said.map((s) => new Set(s.pairs));
  const pair = said[0]?.pairs.find((p) => inAll(p, pairSets));
  if (pair !== undefined) return `${prefix}-${pair}`;
  const lists = said.map((s) => s.words);
  const first = lists[0] ?? [];
  const wordSets = lists.map((words) => new Set(words));
  const counts = new Map<string, number>();
  for (const words of lists) for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  const shared = [...new Set(first)].filter((w) => inAll(w, wordSets));
  shared.sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || first.indexOf(a) - first.indexOf(b));
  const word = shared[0];
  return word === undefined ? undefined : `${prefix}-${word}`;
}
