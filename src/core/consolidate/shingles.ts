// Words too common in skills to say anything about a topic.
const stopWords = new Set(
  (
    'the a an and or of to in for on with by is are be it this that as at from use used using when if then you your not can ' +
    'will do does all any each more most other into only also such than so no yes its was were has have had how what which ' +
    'who should must may file files run step steps skill skills example examples see below above e g i.e eg etc'
  ).split(' '),
);

/** Lowercase words of two or more characters, without stop words and bare numbers (list item numbers say nothing). */
export function tokenizeWords(text: string): string[] {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return words.filter((w) => w.length > 1 && !stopWords.has(w) && !/^\d+$/.test(w));
}

/** 32-bit FNV-1a of a string. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The content shingles of a skill, hashed: its distinct words. Measured on
 * the corpus, single words separate sibling notes from unrelated skills
 * better than word pairs, which two notes on one topic rarely share.
 * Sorted ascending (a signature does not depend on the order).
 */
export function buildShingles(text: string): Uint32Array {
  // Sorted and deduplicated in a typed array: a Set of hashes boxes every one above 2^30 (half of them).
  if (isAscii(text)) return distinctSorted(hashAsciiWords(text).sort());
  const words = tokenizeWords(text);
  const hashes = new Uint32Array(words.length);
  for (let i = 0; i < words.length; i++) hashes[i] = hashString(words[i] as string);
  return distinctSorted(hashes.sort());
}

/** The stop words' hashes: a word whose hash is not among them is no stop word, without making its string. */
const stopHashes = new Set([...stopWords].map(hashString));

/** A character beyond ASCII: one native search, about five times faster than a loop over the text's codes. */
const beyondAscii = /[^\x00-\x7f]/;

function isAscii(text: string): boolean {
  return !beyondAscii.test(text);
}

/**
 * tokenizeWords(text).map(hashString) for ASCII text, in one pass and with no
 * string per word: in ASCII, lowercasing maps only A–Z (elsewhere it may turn
 * a letter into ASCII ones, as `İ` into `i̇`, hence the plain path). A word
 * whose hash is a stop word's is compared as a string, so a collision keeps it.
 */
function hashAsciiWords(text: string): Uint32Array {
  const out = new Uint32Array(text.length >> 1);
  let count = 0;
  const n = text.length;
  for (let i = 0; i < n;) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) {
      i++;
      continue;
    }
    let h = 0x811c9dc5;
    let digits = true;
    let j = i;
    for (;;) {
      if (c >= 97) digits = false;
      h = Math.imul(h ^ c, 0x01000193);
      if (++j >= n) break;
      c = text.charCodeAt(j);
      if (c >= 65 && c <= 90) c += 32;
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) break;
    }
    h >>>= 0;
    if (j - i > 1 && !digits && !(stopHashes.has(h) && stopWords.has(text.slice(i, j).toLowerCase()))) out[count++] = h;
    i = j;
  }
  return out.slice(0, count);
}

/** The distinct values of a sorted array, in order. */
export function distinctSorted(sorted: Uint32Array): Uint32Array {
  let kept = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[kept++] = sorted[i] as number;
  return sorted.slice(0, kept);
}
