/** A link target found in Markdown, with its 1-based position in the body. */
export interface MarkdownLink {
  target: string;
  line: number;
  column: number;
}

// Bounded repetitions keep these linear on hostile input (no nested quantifiers).
const inlineLink =
  /!?\[[^\]\n]{0,1000}\]\(\s{0,20}(<[^>\n]{0,2000}>|[^\s()]{1,2000})(?:\s{1,20}(?:"[^"\n]{0,500}"|'[^'\n]{0,500}'))?\s{0,20}\)/g;
const referenceDefinition = /^ {0,3}\[([^\]\n]{1,1000})\]:[ \t]{0,20}(<[^>\n]{0,2000}>|\S{1,2000})(.{0,2000})$/;
/** After a definition's destination only an optional title may follow (CommonMark §4.7); anything else is prose. */
const definitionTail = /^(?:[ \t]{1,20}(?:"[^"]{0,500}"|'[^']{0,500}'|\([^)]{0,500}\)))?[ \t]{0,20}$/;

/**
 * Links in a Markdown body, outside fenced code blocks and inline code spans. Walks the lines by offset instead of
 * splitting the body: only a fence line or a line holding `](` or `]:` is cut out (most lines hold neither).
 */
export function extractLinks(body: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let nextInline = body.indexOf('](');
  let nextDefinition = body.indexOf(']:');
  if (nextInline < 0 && nextDefinition < 0) return links;
  let openFence: string | undefined;
  for (let start = 0, line = 1; start <= body.length; line += 1) {
    const newline = body.indexOf('\n', start);
    const end = newline < 0 ? body.length : newline;
    const marker = fenceAt(body, start, end);
    if (marker !== undefined) {
      if (openFence === undefined) openFence = marker;
      else if (marker[0] === openFence[0] && marker.length >= openFence.length) openFence = undefined;
    } else if (openFence === undefined) {
      if (nextInline >= 0 && nextInline < start) nextInline = body.indexOf('](', start);
      if (nextDefinition >= 0 && nextDefinition < start) nextDefinition = body.indexOf(']:', start);
      if ((nextInline >= 0 && nextInline < end) || (nextDefinition >= 0 && nextDefinition < end))
        readLine(body.slice(start, end), line, links);
    }
    start = end + 1;
  }
  return links;
}

/** A fence's marker (three or more backticks or tildes after at most three spaces) opening the line, else undefined. */
function fenceAt(body: string, start: number, end: number): string | undefined {
  let at = start;
  while (at < end && at - start < 3 && body.charCodeAt(at) === 32) at += 1;
  const char = body.charCodeAt(at);
  if (char !== 96 && char !== 126) return undefined;
  let run = at;
  while (run < end && body.charCodeAt(run) === char) run += 1;
  return run - at >= 3 ? body.slice(at, run) : undefined;
}

/** The links of one line that holds `](` or `]:`. */
function readLine(raw: string, line: number, links: MarkdownLink[]): void {
  const text = raw.includes('`') ? blankCodeSpans(raw) : raw;
  const definition = referenceDefinition.exec(text);
  // A footnote (`[^1]: GitHub Blog. …`) or a line of prose after `]:` is not a link definition.
  if (definition?.[2] && !definition[1]?.startsWith('^') && definitionTail.test(definition[3] ?? ''))
    links.push({ target: unwrap(definition[2]), line, column: text.indexOf(definition[2], text.indexOf(']:') + 2) + 1 });
  if (!text.includes('](')) return;
  for (const match of text.matchAll(inlineLink)) {
    const target = match[1] ?? '';
    // The target follows "](": the link text may spell the same path.
    const at = match[0].indexOf(target, match[0].indexOf('](') + 2);
    links.push({ target: unwrap(target), line, column: (match.index ?? 0) + at + 1 });
  }
}

/** Replaces `code spans` with spaces so links inside them are ignored and columns stay right. */
function blankCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]{0,2000}?\1/g, (span) => ' '.repeat(span.length));
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}
