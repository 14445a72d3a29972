import { placeholders } from '../privacy/redact.js';

/** Words that say nothing about a task. */
const stopwords = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing done down during each else etc every few for from further get got had has have having he her here hers him his how i if in into is it its itself just let lets like make me more most my need needs no nor not now of off on once only or other our out over own please same she should so some such than thank thanks that the their them then there these they this those through to too under until up us use using very via want was we were what when where which while who why will with would you your yours yes ok okay hi hello hey also again still sure really well look see try new one two way thing things something anything everything it's i'm don't can't let's read file files content stop base directory`.split(
    ' ',
  ),
);

/** A word's key for counting: lower case, a plural `s` dropped (`tests` and `test` are one word). */
export function keyOf(word: string): string {
  return word.length > 4 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

/**
 * A path or an address: its folder and host names say where, not what a person asked for, and may be private (a
 * client's folder). Only a file's own name is kept (`src/parser.ts` → `parser`).
 */
const pathWord = /\S*[/\\]\S*/g;

function fileNameOf(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return ' ';
  const last =
    path
      .replace(/[.,;:!?)'"`]+$/, '')
      .split(/[/\\]/)
      .pop() ?? '';
  return /^[^.]+\.[A-Za-z0-9]{1,8}$/.test(last) ? ` ${last.slice(0, last.lastIndexOf('.'))} ` : ' ';
}

/**
 * The content words of a text, in order: lower case, no stopwords, no numbers, no fragments shorter than 3 letters,
 * nothing of redaction's placeholders (`$GITHUB_TOKEN` is not the word "github") or of a path but its file's name.
 */
export function listTaskWords(text: string): string[] {
  const words = /[$<~/\\]/.test(text) ? text.replace(placeholders, ' ').replace(pathWord, fileNameOf) : text;
  return (words.toLowerCase().match(/[a-z][a-z0-9+#]*(?:'[a-z]+)?/g) ?? []).filter((w) => w.length >= 3 && !stopwords.has(w));
}

export interface TaskWords {
  /** Words asked for in at least half of the sessions (at least two), in the order the typical request says them. */
  words: string[];
  /** The words of the task's name: the recurring words of the typical request's first clause that has any (at most three). */
  nameWords: string[];
  /** That clause, cut after its last recurring word and without "please", "can you", …: `fix the failing tests`. */
  phrase?: string;
  /** The request that holds most of them (the shortest such), for a quotation. */
  example?: string;
}

const politeness =
  /^(?:(?:please|pls|so|ok|okay|now|then|and|also|hey|hi|time to|we need to|we need|i need you to|i need to|i want you to|i want to|i'd like you to|can you|could you|would you|let's|go ahead and)[\s,]+)+/i;

/** The clause of the example the name is read from, and the recurring words it says. */
export function readPhrase(example: string, recurring: ReadonlySet<string>): { phrase?: string; nameWords: string[] } {
  const clauses = example
    .split(/[.:;!?—–]+|,\s|\s-\s|\bthen\b/i)
    .map((c) => c.trim())
    .filter((c) => c !== '');
  const nameWords: string[] = [];
  let phrase: string | undefined;
  for (const clause of clauses) {
    const words = (clause.match(/[A-Za-z][A-Za-z0-9+#]*(?:'[a-z]+)?/g) ?? []).filter((w) => recurring.has(keyOf(w.toLowerCase())));
    if (words.length === 0) continue;
    for (const w of words) if (nameWords.length < 3 && !nameWords.includes(w.toLowerCase())) nameWords.push(w.toLowerCase());
    if (phrase === undefined) {
      const last = words[words.length - 1] as string;
      const cut = clause.slice(0, clause.toLowerCase().lastIndexOf(last.toLowerCase()) + last.length);
      phrase = cut.replace(politeness, '').replace(/^./, (c) => c.toLowerCase());
    }
    if (nameWords.length >= 2) break;
  }
  return phrase === undefined ? { nameWords } : { phrase, nameWords };
}

/**
 * The words that recur across what people asked in a pattern's sessions.
 * `asked` holds one entry per session: what was asked there before the sequence.
 */
export function findTaskWords(asked: readonly (readonly string[])[]): TaskWords {
  const sessions = asked.filter((texts) => texts.length > 0);
  if (sessions.length < 2) return { words: [], nameWords: [] };
  const df = new Map<string, number>();
  const surface = new Map<string, Map<string, number>>();
  // Each text's words read once: the sessions of a pattern ask the same few things, a hundred thousand times over.
  const wordsOf = new Map<string, string[]>();
  const listOnce = (text: string): string[] => {
    let words = wordsOf.get(text);
    if (words === undefined) wordsOf.set(text, (words = listTaskWords(text)));
    return words;
  };
  for (const texts of sessions) {
    const keys = new Set<string>();
    for (const word of texts.flatMap(listOnce)) {
      const key = keyOf(word);
      keys.add(key);
      const forms = surface.get(key) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      surface.set(key, forms);
    }
    for (const key of keys) df.set(key, (df.get(key) ?? 0) + 1);
  }
  const need = Math.max(2, Math.ceil(sessions.length / 2));
  const recurring = new Set([...df].filter(([, n]) => n >= need).map(([k]) => k));
  if (recurring.size === 0) return { words: [], nameWords: [] };
  const example = pickExample(sessions.flat(), recurring) as string;
  const ordered: string[] = [];
  for (const key of listTaskWords(example).map(keyOf)) if (recurring.has(key) && !ordered.includes(key)) ordered.push(key);
  // Recurring words the example does not say come after, most sessions first.
  const rest = [...recurring].filter((k) => !ordered.includes(k)).sort((a, b) => (df.get(b) ?? 0) - (df.get(a) ?? 0) || (a < b ? -1 : 1));
  const words = [...ordered, ...rest].map((key) => mostCommon(surface.get(key)) ?? key);
  return { words, example, ...readPhrase(example, recurring) };
}

function mostCommon(forms: ReadonlyMap<string, number> | undefined): string | undefined {
  if (forms === undefined) return undefined;
  return [...forms].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * The text that says most of the recurring words (distinct), then the shortest, then the first in code-point order;
 * undefined for none. The task's example and a representative session's request are both chosen so.
 */
export function pickExample(texts: readonly string[], recurring: ReadonlySet<string>): string | undefined {
  // Each distinct text scored once, and the best kept in one pass: the order is total (code points last), so the
  // best is the first of the texts sorted, which a pattern of 400,000 sessions took seconds to sort.
  let best: { text: string; score: number } | undefined;
  const seen = new Set<string>();
  for (const text of texts) {
    if (seen.has(text)) continue;
    seen.add(text);
    const score = new Set(
      listTaskWords(text)
        .map(keyOf)
        .filter((k) => recurring.has(k)),
    ).size;
    if (
      best === undefined ||
      score > best.score ||
      (score === best.score && (text.length < best.text.length || (text.length === best.text.length && text < best.text)))
    )
      best = { text, score };
  }
  return best?.text;
}
