/**
 * Makes any value safe to print on one terminal line: control characters
 * (newlines, carriage returns, ESC and the rest of C0 and C1, DEL) become
 * visible escapes. File names and frontmatter are attacker-controlled; left
 * raw, a newline forges a `::warning` line for a CI runner and an ANSI escape
 * rewrites what a person sees. Tabs are kept.
 */
export function escapeControl(text: string): string {
  return /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/.test(text)
    ? text.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, escapeOne)
    : text;
}

const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\u001b': '\\e' };

function escapeOne(c: string): string {
  const code = c.charCodeAt(0);
  return named[c] ?? (code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`);
}
