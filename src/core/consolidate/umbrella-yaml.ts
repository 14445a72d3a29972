import { stringify } from 'yaml';

/** A new umbrella's frontmatter data: string fields, a list of paths, and `metadata` of strings (umbrella.ts builds it). */
export type UmbrellaData = Record<string, string | readonly string[] | Readonly<Record<string, string>>>;

/**
 * `stringify(data, { lineWidth: 0 })`, written directly when every key and
 * value is one the yaml library is known to write in one way; anything else
 * goes to the library. The library took about 130 µs an umbrella (its
 * document model, then its writer), 7 % of planning 10,000 skills.
 * test/core/consolidate/fast-paths.test.ts checks this against the library
 * on generated and tricky values.
 */
export function stringifyUmbrellaData(data: UmbrellaData): string {
  let out = '';
  if (Object.keys(data).length === 0) return stringify(data, { lineWidth: 0 });
  for (const [key, value] of Object.entries(data)) {
    if (!isPlainKey(key)) return stringify(data, { lineWidth: 0 });
    if (typeof value === 'string') {
      const scalar = writeScalar(value);
      if (scalar === undefined) return stringify(data, { lineWidth: 0 });
      out += `${key}: ${scalar}\n`;
    } else if (isList(value)) {
      if (value.length === 0) return stringify(data, { lineWidth: 0 });
      out += `${key}:\n`;
      for (const item of value) {
        const scalar = typeof item === 'string' ? writeScalar(item) : undefined;
        if (scalar === undefined) return stringify(data, { lineWidth: 0 });
        out += `  - ${scalar}\n`;
      }
    } else {
      const entries = Object.entries(value);
      if (entries.length === 0) return stringify(data, { lineWidth: 0 });
      out += `${key}:\n`;
      for (const [inner, item] of entries) {
        const scalar = typeof item === 'string' && isPlainKey(inner) ? writeScalar(item) : undefined;
        if (scalar === undefined) return stringify(data, { lineWidth: 0 });
        out += `  ${inner}: ${scalar}\n`;
      }
    }
  }
  return out;
}

function isList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}

const plainKey = /^[a-z][a-z_-]*$/;

/** A key the library writes as it is: lowercase words, none read back as a boolean or null (`"true": …` is quoted). */
function isPlainKey(key: string): boolean {
  return plainKey.test(key) && !coreWords.test(key);
}

/**
 * The library's test for a string it may not write plain (stringifyString's
 * plainString, yaml 2). A string of one line that passes it, starts with a
 * letter (no indicator, document marker or number) and reads back as no
 * boolean or null is written plain. One that fails it is written
 * double-quoted unless it holds a `"`; with no `"`, `\`, control character or
 * surrogate, JSON's quoting is the library's quoting, unchanged.
 */
const notPlain = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;
const coreWords = /^(?:true|false|null)$/i;
const control = /[\x00-\x1f\x7f-\x9f\ud800-\udfff]/;

/** The scalar as the library writes it (block context, no line width), or undefined where that is not certain. */
export function writeScalar(value: string): string | undefined {
  if (control.test(value)) return undefined;
  if (!notPlain.test(value)) return /^[A-Za-z]/.test(value) && !coreWords.test(value) ? value : undefined;
  return value.includes('"') || value.includes('\\') ? undefined : `"${value}"`;
}
