import { findFencedLines, isQuoted } from './context.js';
import { HIDDEN_INSTRUCTION } from './rules.js';
import type { ScanFinding, ScanSeverity } from './types.js';

/** Files that render a user interface: hiding a tab or a panel there is how the page works, not text kept from a reader. */
const uiFile = /\.(?:html?|css|scss|sass|less|jsx|tsx|vue|svelte)$/i;

/** Files a reader sees rendered, where an HTML comment or a hidden element is kept from them; anywhere else it is plain text. */
const renderedFile = /\.(?:md|markdown|mdx|html?|xhtml|svg)$/i;
const markdownFile = /\.(?:md|markdown|mdx)$/i;
const hidingRules = new Set(['inject-hidden-comment', 'inject-hidden-element']);

/** A private key's body: a long run of base64 (a placeholder writes `...`, `<key>` or nothing). */
const keyBody = /^\s*[A-Za-z0-9+/]{40,}={0,2}\s*$/;
const placeholder = /\.\.\.|…|<[^>]{1,40}>|\bEXAMPLE\b|\byour[-_ ]|\bREDACTED\b|x{8}/i;

function lower(f: ScanFinding, why: string, severity: ScanSeverity = 'low'): ScanFinding {
  return { ...f, severity, message: `${f.message} (${why})` };
}

/** Words that say the commands beside them are refused, not run (`BLOCKED_COMMANDS=`, `Default blocks:`, `Never run these:`). */
const refusal =
  /(?<![a-z])(?:block(?:ed|s|list|ing)?|deny(?:list)?|denied|forbid(?:den)?|disallow(?:ed)?|prohibit(?:ed)?|blacklist(?:ed)?|banned|dangerous[_ ](?:commands?|patterns?)|never\s+(?:run|execute)|must\s+not\s+(?:run|execute)|refuse[ds]?|reject(?:ed|s)?)(?![a-z])/gi;
const refusalWord = new RegExp(refusal.source, 'i');
/** Words that run a command: beside a refused one, they make the line an instruction after all. */
const running =
  /\b(?:run|execute|exec|eval|system|spawn|popen|subprocess|xargs|use|try|type|paste|invoke|call|clean|then|now)\b|\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:ba|z|da|k)?sh\s+-c\b/i;
/** An item of a list: Markdown bullets and numbers, table rows, one quoted string per line (an array in code). */
const listItem = /^\s*(?:[-*+]\s|\d{1,3}[.)]\s|\||["']|`(?!``))/;

/** The match is cited, not written as a command: in quotes or backticks, or a list item. */
function isCited(line: string, start: number, end: number): boolean {
  const single = line.slice(0, start).split("'").length % 2 === 0 && line.indexOf("'", end) >= 0;
  return isQuoted(line, start, end) || single || listItem.test(line);
}

/** The line or the list it belongs to says its commands are refused (the line above its items and blank lines, within 30 lines). */
function isRefused(lines: readonly string[], index: number): boolean {
  for (let i = index; i >= 0 && i > index - 30; i -= 1) {
    const line = lines[i] ?? '';
    if (refusalWord.test(line)) return true;
    if (!listItem.test(line) && line.trim() !== '') return false;
  }
  return false;
}

/**
 * A destructive command cited in a list of refused ones (a safety hook's
 * `BLOCKED_COMMANDS`, a changelog's "Default blocks: `rm -rf /`") is not run:
 * one severity lower. Not when the line also runs something.
 */
function isBlockedListing(f: ScanFinding, lines: readonly string[]): boolean {
  if (f.category !== 'destructive' || f.via === 'base64' || f.line === 0) return false;
  const line = lines[f.line - 1] ?? '';
  const start = f.column - 1;
  const end = start + f.match.replace(/…$/, '').length;
  if (!isCited(line, start, end) || !isRefused(lines, f.line - 1)) return false;
  const rest = `${line.slice(0, start)} ${line.slice(end)}`.replace(refusal, ' ');
  return !running.test(rest);
}

/**
 * Judges line findings by what surrounds them, where one line is not enough:
 * a `BEGIN PRIVATE KEY` line is a key only when a key body follows it, and a
 * hidden element in a UI file (an eval viewer's tabs) is the page at work,
 * unless the hidden text itself instructs the agent; a destructive command in
 * a list of blocked ones is refused, not run; an HTML comment in a script or
 * a Markdown code block is shown, not hidden. Such findings stay in the report
 * (at `low`, or `medium` for blocked commands), so a person can still see them.
 */
export function judgeInContext(findings: ScanFinding[], file: string, lines: readonly string[]): ScanFinding[] {
  let fenced: ReadonlySet<number> | undefined;
  const isShown = (line: number): boolean =>
    !renderedFile.test(file) || (markdownFile.test(file) && (fenced ??= findFencedLines(lines)).has(line));
  return findings.map((f) => {
    if (f.rule === 'cred-private-key' && f.via === 'raw') {
      const here = lines[f.line - 1] ?? '';
      const next = lines[f.line] ?? '';
      const body = here.slice(here.indexOf('-----', f.column + 10) + 5);
      if (placeholder.test(body) || placeholder.test(next) || !keyBody.test(next)) return lower(f, 'a placeholder: no key body follows');
    }
    if (f.rule === 'inject-hidden-element' && uiFile.test(file) && !HIDDEN_INSTRUCTION.test(lines[f.line - 1] ?? ''))
      return lower(f, 'a UI file hiding part of its page');
    if (hidingRules.has(f.rule) && f.severity === 'high' && isShown(f.line))
      return lower(f, 'shown as written, in code or a file that is not rendered: not hidden', 'medium');
    if (f.severity === 'high' && isBlockedListing(f, lines)) return lower(f, 'listed among commands that are blocked, not run', 'medium');
    return f;
  });
}
