import type { SkillFeatures } from './features.js';

/** Name tokens that say what kind of skill it is, never what it is about. */
const kindWords = new Set('skill skills review reviewer guide helper tool tools pro expert patterns best practices dev'.split(' '));

/** Proper nouns per skill (its description's capitalized words, lowercased), read once per parse. */
const properNouns = new WeakMap<SkillFeatures, Set<string>>();

/**
 * Words written capitalized inside a sentence of the description (`Rust`,
 * `C/C++`, `Sentry`): the names of languages, products and brands. A word
 * opening a sentence says nothing, so it is left out.
 */
function readProperNouns(features: SkillFeatures): Set<string> {
  let nouns = properNouns.get(features);
  if (nouns !== undefined) return nouns;
  const description = typeof features.parsed.fields.description === 'string' ? features.parsed.fields.description : '';
  nouns = new Set<string>();
  for (const match of description.matchAll(/(^|[.!?:]\s+|\s|\(|\/)([A-Z][A-Za-z0-9]*)/g)) {
    const opensSentence = match.index === 0 || /[.!?:]\s+$/.test(match[1] as string);
    if (!opensSentence) nouns.add((match[2] as string).toLowerCase());
  }
  properNouns.set(features, nouns);
  return nouns;
}

function wordsOf(features: SkillFeatures): Set<string> {
  const description = typeof features.parsed.fields.description === 'string' ? features.parsed.fields.description : '';
  return new Set(description.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

/** The name tokens of `a` that `b`'s name lacks and that `a`'s description writes as a proper noun. */
function subjectTokens(a: SkillFeatures, b: SkillFeatures): string[] {
  const nouns = readProperNouns(a);
  return a.nameTokens.filter((t) => !b.nameTokens.includes(t) && !kindWords.has(t) && nouns.has(t));
}

/**
 * Two skills about different things that share a template (issue #29: `c-review`
 * and `rust-review`, one security-review template filled in for C and for Rust):
 * each name holds a word the other's lacks, each description writes it as a
 * proper noun (a language, a product, a brand), and neither description names
 * the other's. Their shared boilerplate is no reason to merge them.
 */
export function differSubjects(a: SkillFeatures, b: SkillFeatures): boolean {
  const own = subjectTokens(a, b);
  const other = subjectTokens(b, a);
  if (own.length === 0 || other.length === 0) return false;
  const aWords = wordsOf(a);
  const bWords = wordsOf(b);
  return own.every((t) => !bWords.has(t)) && other.every((t) => !aWords.has(t));
}
