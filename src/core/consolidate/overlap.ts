import { listBlocks, listHeadings, listParagraphs } from './markdown.js';
import { NameMask } from './mask.js';

/** What of a member's body the umbrella does not hold yet, as written, and how much of the body that is. */
export interface Residue {
  /** The missing blocks, each missing paragraph behind the heading it stood under. */
  text: string;
  missing: number;
  total: number;
}

/**
 * The text an umbrella already holds, seen as the guard sees it (paragraphs
 * and headings with the plan's names masked): a member whose body is all in
 * it is a copy and adds nothing (issue #29: two identical members both moved
 * into references/, ~1,300 duplicated lines); a near copy adds only what
 * differs.
 */
export class SeenText {
  private readonly mask: NameMask;
  private readonly paragraphs = new Set<string>();
  private readonly headings = new Set<string>();

  constructor(names: readonly string[]) {
    this.mask = new NameMask(names);
  }

  add(text: string): void {
    for (const p of listParagraphs(this.mask.mask(text))) this.paragraphs.add(p);
    for (const h of listHeadings(text)) this.headings.add(h);
  }

  /** The member body's blocks the seen text lacks; the masked and the plain split line up (masking keeps every line). */
  residue(body: string): Residue {
    const plain = listBlocks(body);
    const masked = listBlocks(this.mask.mask(body));
    const out: string[] = [];
    let heading: string | undefined;
    let missing = 0;
    let total = 0;
    plain.forEach((block, i) => {
      const seen = masked[i]?.raw ?? block.raw;
      if (block.kind === 'heading') {
        const text = listHeadings(block.raw)[0] ?? '';
        heading = block.raw;
        if (!this.headings.has(text)) {
          out.push(block.raw);
          heading = undefined;
        }
        return;
      }
      total++;
      if (this.paragraphs.has(seen.replace(/\s+/g, ' ').trim())) return;
      missing++;
      if (heading !== undefined) out.push(heading);
      heading = undefined;
      out.push(block.raw);
    });
    return { text: out.join('\n\n'), missing, total };
  }
}
