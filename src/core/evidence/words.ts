import { keyOf, listTaskWords } from '../patterns/task-words.js';

/** Words every skill description says: they tell no skill from another. */
const listingWords = new Set(
  `skill skills use used user users ask asks asked task tasks help helps work works working when whenever want wants need needs
  request requests mention mentions mentioned trigger triggers invoke invoked include including includes example examples
  step steps guide guides workflow workflows instruction instructions support supports handle handles provide provides`
    .split(/\s+/)
    .filter(Boolean)
    .map(keyOf),
);

/** A text's content words as keys (lower case, plural dropped, stopwords and listing words left out), each once. */
export function listWordKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const word of listTaskWords(text)) {
    const key = keyOf(word);
    if (!listingWords.has(key)) keys.add(key);
  }
  return keys;
}

/** The words a skill's listing offers a client to match a request on: its name's parts, description and when_to_use. */
export function listTriggerWords(skill: { name: string; description: string; when_to_use?: string }): Set<string> {
  return listWordKeys(`${skill.name.replace(/[-_:]/g, ' ')} ${skill.description} ${skill.when_to_use ?? ''}`);
}

/** Fewest shared words for a request to count as asking for a skill. */
export const minSharedWords = 3;

/**
 * The miss rule by words, conservative (precision over recall): the request shares at least three content words with
 * the skill's listing, and those are at least half of the request's content words. A long request that mentions a
 * few of the words in passing is not a request for the skill.
 */
export function askedFor(shared: number, requestWords: number): boolean {
  return shared >= minSharedWords && shared * 2 >= requestWords;
}
