/** Small fence-aware Markdown helpers: headings inside code blocks (a shell `# comment`) are not headings. */

const fenceLine = /^ {0,3}(`{3,}|~{3,})/;
const headingLine = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

/** Calls `visit` with each line and whether it sits inside a fenced code block (fence lines count as inside). */
function walkLines(text: string, visit: (line: string, inFence: boolean) => void): void {
  const lines = text.split('\n');
  // A fence line holds three backticks or tildes: without them no line is in a fence, and no line need be matched.
  if (!text.includes('```') && !text.includes('~~~')) {
    for (const line of lines) visit(line, false);
    return;
  }
  let open: string | undefined;
  for (const line of lines) {
    const fence = fenceLine.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      if (open === undefined) open = marker;
      else if (marker[0] === open[0] && marker.length >= open.length) {
        visit(line, true);
        open = undefined;
        continue;
      }
    }
    visit(line, open !== undefined);
  }
}

/** A heading line starts with `#` (headingLine is anchored there): most lines need no match. */
function isHeadingStart(line: string): boolean {
  return line.charCodeAt(0) === 35;
}

/** Whether a text may hold a fence line (three backticks or tildes): walkLines' own shortcut. */
function mayHoldFence(text: string): boolean {
  return text.includes('```') || text.includes('~~~');
}

/** The lines of a text that start with `#`, found by searching for `\n#` rather than cutting every line out. */
function listHashLines(text: string): string[] {
  const out: string[] = [];
  let start = text.charCodeAt(0) === 35 ? 0 : lineAfter(text.indexOf('\n#'));
  while (start !== -1) {
    const newline = text.indexOf('\n', start);
    out.push(text.slice(start, newline === -1 ? text.length : newline));
    start = newline === -1 ? -1 : lineAfter(text.indexOf('\n#', newline));
  }
  return out;
}

/** The start of the line after a newline found at `at`, or -1 when none was found. */
function lineAfter(at: number): number {
  return at === -1 ? -1 : at + 1;
}

/** Heading texts outside code fences, in order. */
export function listHeadings(text: string): string[] {
  const out: string[] = [];
  if (!mayHoldFence(text)) {
    // No line is in a fence: only the lines starting with `#` can be headings.
    for (const line of listHashLines(text)) {
      const match = headingLine.exec(line);
      if (match) out.push((match[2] as string).trim());
    }
    return out;
  }
  walkLines(text, (line, inFence) => {
    const match = inFence || !isHeadingStart(line) ? null : headingLine.exec(line);
    if (match) out.push((match[2] as string).trim());
  });
  return out;
}

/** Blocks between blank lines that are not headings, whitespace collapsed. */
export function listParagraphs(text: string): string[] {
  if (!text.includes('```') && !text.includes('~~~')) return listParagraphsWithoutFences(text);
  const out: string[] = [];
  let block: string[] = [];
  const flush = () => {
    const joined = block.join(' ').replace(/\s+/g, ' ').trim();
    if (joined !== '') out.push(joined);
    block = [];
  };
  walkLines(text, (line, inFence) => {
    if (!inFence && (line.trim() === '' || (isHeadingStart(line) && headingLine.test(line)))) flush();
    else block.push(line);
  });
  flush();
  return out;
}

/** Whitespace the one replace below would not collapse right: a run of two, or a space other than ` ` and a newline. */
const unusualSpace = /\s\s|[^\S \n]/;

/**
 * `text.slice(start, end).replace(/\s+/g, ' ').trim()`. Most blocks are lines
 * of words, every run of whitespace one space or one newline: then the
 * collapse is the newlines made spaces, one native replace (trim and `\s`
 * share one set of spaces, so trimming first changes nothing). A character
 * loop that copied the pieces between runs took twice as long.
 */
export function collapseWhitespace(text: string, start: number, end: number): string {
  const block = text.slice(start, end).trim();
  return unusualSpace.test(block) ? block.replace(/\s+/g, ' ') : block.replaceAll('\n', ' ');
}

/** Whether text[start, end) is blank as `trim() === ''` says, without cutting it out (ASCII answered directly). */
function isBlankLine(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    // Beyond ASCII, trim's whitespace (U+00A0, U+2028, U+FEFF…) decides.
    return c < 128 ? false : text.slice(start, end).trim() === '';
  }
  return true;
}

/**
 * listParagraphs of a text with no fence: each block is cut from the text
 * itself rather than joined from its lines (its newlines are whitespace the
 * collapse turns into the same single spaces the join would have put there).
 */
function listParagraphsWithoutFences(text: string): string[] {
  const out: string[] = [];
  let blockStart = -1;
  let blockEnd = -1;
  const flush = () => {
    if (blockStart === -1) return;
    const joined = collapseWhitespace(text, blockStart, blockEnd);
    if (joined !== '') out.push(joined);
    blockStart = -1;
  };
  for (let start = 0; start <= text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (isBlankLine(text, start, end) || (text.charCodeAt(start) === 35 && headingLine.test(text.slice(start, end)))) flush();
    else {
      if (blockStart === -1) blockStart = start;
      blockEnd = end;
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  flush();
  return out;
}

/** Every heading one level deeper (`#` → `##`, down to `######`), so a skill body nests under a section. */
export function demoteHeadings(text: string): string {
  const out: string[] = [];
  walkLines(text, (line, inFence) => {
    out.push(!inFence && headingLine.test(line) && !line.startsWith('######') ? `#${line}` : line);
  });
  return out.join('\n');
}

/** The leading `# Title` of a body (after blank lines), and the body without it. */
export function splitTitle(body: string): { title: string | undefined; rest: string } {
  const match = /^\s*# +(.+?)[ \t#]*\n/.exec(`${body}\n`);
  if (!match) return { title: undefined, rest: body };
  return { title: (match[1] as string).trim(), rest: `${body}\n`.slice(match[0].length).replace(/\n$/, '') };
}

/** Number of `##` sections outside code fences. */
export function countSections(body: string): number {
  let count = 0;
  if (!mayHoldFence(body)) {
    for (const line of listHashLines(body)) if (line.startsWith('## ')) count++;
    return count;
  }
  walkLines(body, (line, inFence) => {
    if (!inFence && /^## /.test(line)) count++;
  });
  return count;
}

/** GitHub's heading anchor: lowercase, punctuation dropped, spaces to hyphens. */
export function slugAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** `deploy-staging` → `Deploy staging`. */
export function humanize(name: string, spelled: readonly string[] = []): string {
  let words = name.replace(/[-_]+/g, ' ').trim();
  // A word the members write in capitals (`PPTX`, `API`) is written so in the name's title too, not `Pptx`.
  if (spelled.length > 0) {
    const forms = new Map<string, string>();
    for (const text of spelled) for (const w of text.match(/\b[A-Z][A-Z0-9]+\b/g) ?? []) forms.set(w.toLowerCase(), w);
    words = words.replace(/[a-z0-9]+/g, (w) => forms.get(w) ?? w);
  }
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A block of listParagraphs' split with its own lines kept (`raw`), or a heading line. */
export interface MarkdownBlock {
  kind: 'heading' | 'paragraph';
  raw: string;
}

/** The blocks listParagraphs and listHeadings see, in order, as written: what a residue (overlap.ts) copies back out. */
export function listBlocks(text: string): MarkdownBlock[] {
  const out: MarkdownBlock[] = [];
  let block: string[] = [];
  const flush = () => {
    if (block.join('').trim() !== '') out.push({ kind: 'paragraph', raw: block.join('\n') });
    block = [];
  };
  walkLines(text, (line, inFence) => {
    if (inFence || (line.trim() !== '' && !(isHeadingStart(line) && headingLine.test(line)))) block.push(line);
    else {
      flush();
      if (line.trim() !== '') out.push({ kind: 'heading', raw: line });
    }
  });
  flush();
  return out;
}
