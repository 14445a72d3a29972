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
const fence = /^ {0,3}(`{3,}|~{3,})/;

/** Links in a Markdown body, outside fenced code blocks and inline code spans. */
export function extractLinks(body: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  if (!body.includes('](') && !body.includes(']:')) return links;
  let openFence: string | undefined;
  body.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const fenceMatch = raw.includes('``') || raw.includes('~~') ? fence.exec(raw) : null;
    if (fenceMatch) {
      const marker = fenceMatch[1] ?? '';
      if (openFence === undefined) openFence = marker;
      else if (marker[0] === openFence[0] && marker.length >= openFence.length) openFence = undefined;
      return;
    }
    if (openFence !== undefined) return;
    // Most lines hold no link: test cheaply before running the regexes.
    if (!raw.includes('](') && !raw.includes(']:')) return;
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
  });
  return links;
}

/** Replaces `code spans` with spaces so links inside them are ignored and columns stay right. */
function blankCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]{0,2000}?\1/g, (span) => ' '.repeat(span.length));
}

function unwrap(target: string): string {
  return target.startsWith('<') && target.endsWith('>') ? target.slice(1, -1) : target;
}
