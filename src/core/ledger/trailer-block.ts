/*
 * Git's trailer rules, mirrored from trailer.c and commit.c (git 2.39) so that
 * our reading agrees with `git interpret-trailers --parse` and with
 * `git log --format=%(trailers)`. Names follow git's own functions.
 */

const commentChar = '#';
const scissorsLine = '# ------------------------ >8 ------------------------\n';
// Lines git itself writes; one of them lets a block be only 25% trailers.
const gitGeneratedPrefixes = ['Signed-off-by: ', '(cherry picked from commit '];

/** One `key: value` trailer, as git parses it. */
export interface Trailer {
  key: string;
  value: string;
}

export interface TrailerBlockOptions {
  /** Treat a `---` line as the start of a patch (interpret-trailers' default; `%(trailers)` does not). */
  divider?: boolean;
}

export interface TrailerBlock {
  /** Index of the first line of the block (equal to `end` when there is none). */
  start: number;
  end: number;
  lines: string[];
}

/** C's isspace: the characters git treats as blank. */
function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';
}

function isBlankLine(line: string): boolean {
  for (const c of line) if (!isSpace(c)) return false;
  return true;
}

function trimSpace(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && isSpace(text[from])) from++;
  while (to > from && isSpace(text[to - 1])) to--;
  return text.slice(from, to);
}

/** Lines with their `\n` kept, as git walks them. */
export function splitGitLines(message: string): string[] {
  return message.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** Position of the separator after a token: no space before or inside the token, any blanks before `:`. */
function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 45;
}

function findSeparator(line: string): number {
  let whitespaceFound = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === ':') return i;
    if (!whitespaceFound && isTokenChar(line.charCodeAt(i))) continue;
    if (i !== 0 && (c === ' ' || c === '\t')) {
      whitespaceFound = true;
      continue;
    }
    break;
  }
  return -1;
}

function findPatchStart(lines: readonly string[]): number {
  const index = lines.findIndex((line) => line.startsWith('---') && isSpace(line[3]));
  return index === -1 ? lines.length : index;
}

/** git's ignore_non_trailer: trailing comments, blank lines and an old `Conflicts:` block are not the message. */
function findTrailerEnd(lines: readonly string[], end: number): number {
  const scissors = lines.indexOf(scissorsLine);
  const cutoff = scissors === -1 ? end : Math.min(scissors, end);
  let boc = 0; // 0 means "no run yet", as in git (a run from line 0 is never trimmed)
  let inConflicts = false;
  for (let i = 0; i < cutoff; i++) {
    const line = lines[i] as string;
    if (line[0] === commentChar || line[0] === '\n') {
      if (!boc) boc = i;
    } else if (line.startsWith('Conflicts:\n')) {
      inConflicts = true;
      if (!boc) boc = i;
    } else if (inConflicts && line[0] === '\t') {
      // a path in the conflicts block
    } else if (boc) {
      boc = 0;
      inConflicts = false;
    }
  }
  return boc ? boc : cutoff;
}

function findEndOfTitle(lines: readonly string[], end: number): number {
  let i = 0;
  for (; i < end; i++) {
    const line = lines[i] as string;
    if (line[0] === commentChar) continue;
    if (isBlankLine(line)) break;
  }
  return i;
}

/** Walks back from the end: the last paragraph is a block if it is all trailers, or ≥25% with a git-generated one. */
function findTrailerStart(lines: readonly string[], end: number): number {
  const endOfTitle = findEndOfTitle(lines, end);
  let onlySpaces = true;
  let recognizedPrefix = false;
  let trailerLines = 0;
  let nonTrailerLines = 0;
  let possibleContinuations = 0;
  for (let i = end - 1; i >= endOfTitle; i--) {
    const line = lines[i] as string;
    if (line[0] === commentChar) {
      nonTrailerLines += possibleContinuations;
      possibleContinuations = 0;
    } else if (isBlankLine(line)) {
      if (onlySpaces) continue;
      nonTrailerLines += possibleContinuations;
      if (recognizedPrefix && trailerLines * 3 >= nonTrailerLines) return i + 1;
      if (trailerLines > 0 && nonTrailerLines === 0) return i + 1;
      return end;
    } else {
      onlySpaces = false;
      if (gitGeneratedPrefixes.some((prefix) => line.startsWith(prefix))) {
        trailerLines++;
        possibleContinuations = 0;
        recognizedPrefix = true;
      } else if (findSeparator(line) >= 1 && !isSpace(line[0])) {
        trailerLines++;
        possibleContinuations = 0;
      } else if (isSpace(line[0])) {
        possibleContinuations++;
      } else {
        nonTrailerLines += 1 + possibleContinuations;
        possibleContinuations = 0;
      }
    }
  }
  return end;
}

/** Locates the trailer block of a message by git's rules. */
export function findTrailerBlock(message: string, options: TrailerBlockOptions = {}): TrailerBlock {
  const lines = splitGitLines(message);
  const patchStart = options.divider === false ? lines.length : findPatchStart(lines);
  const end = findTrailerEnd(lines, patchStart);
  return { start: findTrailerStart(lines, end), end, lines };
}

/** Collapses folded lines to one space, as `--unfold` does. */
function unfoldValue(value: string): string {
  return trimSpace(value.replace(/\n[ \t\n\r\v\f]*/g, ' '));
}

/** The trailers of a block: continuation lines joined, comments and non-trailer lines dropped. */
export function readBlockTrailers(block: TrailerBlock): Trailer[] {
  const items: string[] = [];
  let lastIsTrailer = false;
  for (const line of block.lines.slice(block.start, block.end)) {
    if (lastIsTrailer && isSpace(line[0])) {
      items[items.length - 1] += line;
      continue;
    }
    items.push(line);
    lastIsTrailer = findSeparator(line) >= 1;
  }
  const trailers: Trailer[] = [];
  for (const item of items) {
    if (item[0] === commentChar) continue;
    const separator = findSeparator(item);
    if (separator < 1) continue;
    trailers.push({ key: trimSpace(item.slice(0, separator)), value: unfoldValue(trimSpace(item.slice(separator + 1))) });
  }
  return trailers;
}
