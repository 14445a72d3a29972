/**
 * A file's lines, cut from its text only when asked for: most files have no
 * finding, and the scan then needs no line but those a trigger woke a rule
 * on. The whole list (for the comment, suppression and hidden-comment passes)
 * is split once, on first use.
 */
export interface TextLines {
  /** Number of lines (`\n` separated). */
  count: number;
  /** The offset each line starts at. */
  starts: readonly number[];
  /** Line `i` (0-based), without its `\n`. */
  at(i: number): string;
  /** Every line. */
  list(): readonly string[];
}

export function buildTextLines(text: string, starts: readonly number[]): TextLines {
  let all: string[] | undefined;
  return {
    count: starts.length,
    starts,
    at(i) {
      if (all) return all[i]!;
      const end = i + 1 < starts.length ? starts[i + 1]! - 1 : text.length;
      return text.slice(starts[i], end);
    },
    list: () => (all ??= text.split('\n')),
  };
}
