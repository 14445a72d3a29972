/**
 * The guard's masking, in one pass over the text. The definition (kept as the
 * reference in test/core/consolidate/fast-paths.test.ts) takes three: blank
 * link targets, replace the names as whole words with `§` (replaceWords), then
 * collapse every path-like run holding a `§` to one `§`. The last two steps
 * see the same runs: a run of `[\w./§-]` is runs of replaceWords' characters
 * joined by `§`, so it collapses exactly when it already held a `§` or one of
 * its runs held a name. Deciding that per run, without building the replaced
 * text, is most of the guard's cost saved (one allocation per word before).
 */
const mark = '\u00a7';

function isWordCode(c: number): boolean {
  // A-Z a-z 0-9 _ -
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}

function isRunCode(c: number): boolean {
  return isWordCode(c) || c === 46 || c === 47 || c === 0xa7;
}

/** Compiled once per plan: the names and their lengths (a run of another length is never looked up). */
export class NameMask {
  private readonly names: ReadonlySet<string>;
  private readonly lengths: ReadonlySet<number>;
  /** What a blanked run must hold one of: a name or a `§`. */
  private readonly probes: readonly string[];

  constructor(names: readonly string[]) {
    this.names = new Set(names);
    this.lengths = new Set(names.map((n) => n.length));
    this.probes = [...new Set([...names.filter((n) => n !== ''), mark])];
  }

  private has(text: string, start: number, end: number): boolean {
    return this.lengths.has(end - start) && this.names.has(text.slice(start, end));
  }

  /**
   * Whether replaceWords, with every name mapped to `§`, would change the run
   * text[start, end) (which holds no `§`; `pathLike`: it holds `.` or `/`;
   * `slash`: it holds `/`, as its core without trailing dots then does).
   */
  private holdsName(text: string, start: number, end: number, pathLike: boolean, slash: boolean): boolean {
    if (this.has(text, start, end)) return true;
    // Without `.` or `/` the run is one word, just looked up.
    if (!pathLike) return false;
    let core = end;
    while (core > start && text.charCodeAt(core - 1) === 46) core--;
    if (slash && this.has(text, start, core)) return true;
    for (let i = start; i < end;) {
      if (!isWordCode(text.charCodeAt(i))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j < end && isWordCode(text.charCodeAt(j))) j++;
      if (this.has(text, i, j)) return true;
      i = j;
    }
    return false;
  }

  /** Text with link targets and the names (and any path-like word holding one) blanked. */
  mask(text: string): string {
    // Each pattern needs its `](` or `]:`: a text without one is left as it is without running the pattern.
    const noTargets = text.includes('](') ? text.replace(/\]\([^)\n]*\)/g, ']()') : text;
    const noLinks = noTargets.includes(']:') ? noTargets.replace(/^( {0,3}\[[^\]\n]+\]:)[ \t]*\S+/gm, '$1') : noTargets;
    // A run is blanked only when it holds a `§` or a name, so only the runs around an occurrence of one are read:
    // a native search per name instead of a character loop over the whole text (most texts hold few mentions).
    const found: number[] = [];
    for (const probe of this.probes) for (let at = noLinks.indexOf(probe); at !== -1; at = noLinks.indexOf(probe, at + 1)) found.push(at);
    if (found.length === 0) return noLinks;
    found.sort((a, b) => a - b);
    let out = '';
    let copied = 0;
    let done = 0;
    const n = noLinks.length;
    for (const at of found) {
      if (at < done) continue;
      let i = at;
      while (i > 0 && isRunCode(noLinks.charCodeAt(i - 1))) i--;
      // A run reaching back before the last one read is that run.
      if (i < done) continue;
      let j = i;
      let marked = false;
      let pathLike = false;
      let slash = false;
      while (j < n) {
        const c = noLinks.charCodeAt(j);
        if (!isRunCode(c)) break;
        if (c === 0xa7) marked = true;
        else if (c === 46) pathLike = true;
        else if (c === 47) pathLike = slash = true;
        j++;
      }
      done = Math.max(j, at + 1);
      if (i === j) continue;
      if (marked || this.holdsName(noLinks, i, j, pathLike, slash)) {
        out += noLinks.slice(copied, i) + mark;
        copied = j;
      }
    }
    return copied === 0 ? noLinks : out + noLinks.slice(copied);
  }
}
