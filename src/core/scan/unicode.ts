import type { SpecialRuleId } from './special-rules.js';

/** One class of invisible characters found on a line, with the code points as `U+XXXX`. */
export interface InvisibleHit {
  rule: SpecialRuleId;
  column: number;
  codePoints: string[];
  count: number;
}

const emoji = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Emoji_Component}/u;
const nonLatinLetter = /[\p{L}\p{M}]/u;
const latin = /\p{Script=Latin}/u;

/** Quick reject: a line with none of these has nothing invisible. */
const candidate =
  /[\u00AD\u061C\u034F\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDDEF]/;

function classify(cp: number): SpecialRuleId | undefined {
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'unicode-bidi-control';
  if (cp >= 0xe0000 && cp <= 0xe007f) return 'unicode-tag-chars';
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return 'unicode-directional-mark';
  if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff || cp === 0x180e) return 'unicode-zero-width';
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return 'unicode-variation-run';
  if (cp === 0x00ad || cp === 0x034f || cp === 0x115f || cp === 0x1160 || cp === 0x17b4 || cp === 0x17b5) return 'unicode-invisible';
  if ((cp >= 0x2061 && cp <= 0x2064) || (cp >= 0x206a && cp <= 0x206f) || cp === 0x3164 || cp === 0xffa0) return 'unicode-invisible';
  if (cp >= 0xfff9 && cp <= 0xfffb) return 'unicode-invisible';
  return undefined;
}

export function formatCodePoint(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** True for characters the scan strips before re-running the rules (so `ig\u200Bnore` reads `ignore`). */
export function isInvisible(cp: number): boolean {
  return classify(cp) !== undefined;
}

/**
 * Joiners and selectors are legitimate inside emoji sequences and in scripts
 * that need them (Persian, Indic); only flag them next to plain Latin text.
 */
function isLegitimate(rule: SpecialRuleId, chars: string[], i: number, lineStart: boolean): boolean {
  const cp = chars[i]!.codePointAt(0)!;
  const prev = chars[i - 1] ?? '';
  const next = chars[i + 1] ?? '';
  if (cp === 0xfeff && lineStart && i === 0) return true;
  if (rule === 'unicode-tag-chars') return chars.slice(Math.max(0, i - 40), i).some((c) => c === '\u{1F3F4}');
  if (cp === 0x200d || cp === 0x200c || cp === 0xfe0f || cp === 0xfe0e) {
    if (emoji.test(prev) || emoji.test(next)) return true;
    const letter = (c: string): boolean => nonLatinLetter.test(c) && !latin.test(c);
    return letter(prev) || letter(next);
  }
  // A zero-width space next to Markdown punctuation escapes formatting (a fence inside a fence), a known idiom.
  if (cp === 0x200b || cp === 0x2060) return /[`*_~|#>]/.test(prev) || /[`*_~|#>]/.test(next);
  return false;
}

/** Finds invisible and bidi characters on one line, one hit per class. */
export function findInvisible(line: string, { fileStart = false } = {}): InvisibleHit[] {
  if (!candidate.test(line)) return [];
  const chars = Array.from(line);
  const hits = new Map<SpecialRuleId, InvisibleHit>();
  let offset = 0;
  let selectorRun = 0;
  chars.forEach((ch, i) => {
    const cp = ch.codePointAt(0)!;
    const rule = classify(cp);
    selectorRun = rule === 'unicode-variation-run' && !isLegitimate(rule, chars, i, fileStart) ? selectorRun + 1 : 0;
    if (rule && !isLegitimate(rule, chars, i, fileStart) && (rule !== 'unicode-variation-run' || selectorRun >= 4)) {
      const hit = hits.get(rule) ?? { rule, column: offset + 1, codePoints: [], count: 0 };
      const code = formatCodePoint(cp);
      if (!hit.codePoints.includes(code) && hit.codePoints.length < 8) hit.codePoints.push(code);
      hit.count += 1;
      hits.set(rule, hit);
    }
    offset += ch.length;
  });
  return [...hits.values()];
}
