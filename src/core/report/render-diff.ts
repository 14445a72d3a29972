/** Lines beyond this get a whole-file hunk: the LCS table is quadratic. */
const maxLines = 4000;
const context = 3;

type Op = { kind: ' ' | '-' | '+'; line: string };

/** A unified diff (`diff -u` style, 3 lines of context) of two texts, or '' when equal. */
export function renderUnifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = a.length * b.length > maxLines * maxLines ? wholeFile(a, b) : diffLines(a, b);
  const out = [`--- a/${path}`, `+++ b/${path}`];
  for (const hunk of hunks(ops)) out.push(...hunk);
  return `${out.join('\n')}\n`;
}

/** Lines with their endings made visible where they differ only by a CR, so a CRLF fix shows as a change. */
function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? `${line.slice(0, -1)}\\r` : line));
}

function wholeFile(a: string[], b: string[]): Op[] {
  return [...a.map((line): Op => ({ kind: '-', line })), ...b.map((line): Op => ({ kind: '+', line }))];
}

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i++]! });
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ kind: '+', line: b[j++]! });
    else ops.push({ kind: '-', line: a[i++]! });
  }
  return ops;
}

function hunks(ops: Op[]): string[][] {
  const changed = ops.map((op, index) => (op.kind === ' ' ? -1 : index)).filter((index) => index >= 0);
  const result: string[][] = [];
  let k = 0;
  while (k < changed.length) {
    let start = Math.max(0, changed[k]! - context);
    let end = Math.min(ops.length, changed[k]! + context + 1);
    while (k + 1 < changed.length && changed[k + 1]! - context <= end) end = Math.min(ops.length, changed[++k]! + context + 1);
    k++;
    const slice = ops.slice(start, end);
    const before = ops.slice(0, start);
    const oldStart = before.filter((op) => op.kind !== '+').length + 1;
    const newStart = before.filter((op) => op.kind !== '-').length + 1;
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    start = oldCount === 0 ? oldStart - 1 : oldStart;
    const newFrom = newCount === 0 ? newStart - 1 : newStart;
    result.push([`@@ -${start},${oldCount} +${newFrom},${newCount} @@`, ...slice.map((op) => `${op.kind}${op.line}`)]);
  }
  return result;
}
