import { finding, type Finding } from '../findings.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export interface DecodeResult {
  text: string;
  findings: Finding[];
}

/**
 * Turns file bytes into text. Invalid UTF-8 is decoded with replacement
 * characters so the file still loads (as clients do), and reported once at the
 * line of the first bad byte.
 */
export function decodeSkillBytes(bytes: Uint8Array, file: string): DecodeResult {
  try {
    return { text: strictUtf8.decode(bytes), findings: [] };
  } catch {
    const text = lenientUtf8.decode(bytes);
    const at = text.indexOf('\uFFFD');
    const before = at < 0 ? '' : text.slice(0, at);
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    return {
      text,
      findings: [
        finding({
          code: 'skill/not-utf8',
          severity: 'error',
          file,
          line,
          column,
          message: 'the file is not valid UTF-8; invalid bytes were read as U+FFFD',
          hint: 'Re-save the file as UTF-8 (e.g. `iconv -f latin1 -t utf-8`).',
        }),
      ],
    };
  }
}

/** True when the bytes look like a binary file rather than text (a NUL in the first 8 KiB, as git decides). */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}
