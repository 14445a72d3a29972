import { HIDDEN_INSTRUCTION } from './rules.js';
import type { ScanFinding } from './types.js';

/** Files that render a user interface: hiding a tab or a panel there is how the page works, not text kept from a reader. */
const uiFile = /\.(?:html?|css|scss|sass|less|jsx|tsx|vue|svelte)$/i;

/** A private key's body: a long run of base64 (a placeholder writes `...`, `<key>` or nothing). */
const keyBody = /^\s*[A-Za-z0-9+/]{40,}={0,2}\s*$/;
const placeholder = /\.\.\.|…|<[^>]{1,40}>|\bEXAMPLE\b|\byour[-_ ]|\bREDACTED\b|x{8}/i;

function lower(f: ScanFinding, why: string): ScanFinding {
  return { ...f, severity: 'low', message: `${f.message} (${why})` };
}

/**
 * Judges line findings by what surrounds them, where one line is not enough:
 * a `BEGIN PRIVATE KEY` line is a key only when a key body follows it, and a
 * hidden element in a UI file (an eval viewer's tabs) is the page at work,
 * unless the hidden text itself instructs the agent. Such findings stay in the
 * report at `low`, so a person can still see them.
 */
export function judgeInContext(findings: ScanFinding[], file: string, lines: readonly string[]): ScanFinding[] {
  return findings.map((f) => {
    if (f.rule === 'cred-private-key' && f.via === 'raw') {
      const here = lines[f.line - 1] ?? '';
      const next = lines[f.line] ?? '';
      const body = here.slice(here.indexOf('-----', f.column + 10) + 5);
      if (placeholder.test(body) || placeholder.test(next) || !keyBody.test(next)) return lower(f, 'a placeholder: no key body follows');
    }
    if (f.rule === 'inject-hidden-element' && uiFile.test(file) && !HIDDEN_INSTRUCTION.test(lines[f.line - 1] ?? ''))
      return lower(f, 'a UI file hiding part of its page');
    return f;
  });
}
