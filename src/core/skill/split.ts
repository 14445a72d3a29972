/**
 * Where the frontmatter sits in a SKILL.md: the opening `---` line, the YAML
 * text, the closing `---` line and the body. Keeping the exact delimiter text
 * is what lets serialize reproduce the file byte for byte.
 */
export interface SkillSections {
  /** BOM (if any) plus the opening delimiter line with its line ending; '' when there is no frontmatter. */
  head: string;
  /** The YAML text between the delimiters, line endings included. */
  yaml: string;
  /** The closing delimiter line with its line ending (may lack one at end of file). */
  close: string;
  body: string;
  bom: boolean;
  eol: '\n' | '\r\n';
  /** 'ok', or why the frontmatter could not be found. */
  frontmatter: 'ok' | 'missing' | 'unterminated';
  /** 1-based line of the first YAML line and of the first body line. */
  yamlLine: number;
  bodyLine: number;
}

const openPattern = /^---[ \t]*(\r?\n|$)/;
const closePattern = /^---[ \t]*(?:\r?\n|$)/gm;

export function splitSkill(text: string): SkillSections {
  const bom = text.startsWith('\uFEFF');
  const rest = bom ? text.slice(1) : text;
  const eol = /\r\n/.test(rest.slice(0, 4096)) ? '\r\n' : '\n';
  const open = openPattern.exec(rest);
  const none = { yaml: '', close: '', bom, eol, yamlLine: 1 } as const;
  if (!open) return { ...none, head: bom ? '\uFEFF' : '', body: rest, frontmatter: 'missing', bodyLine: 1 };

  const yamlStart = open[0].length;
  closePattern.lastIndex = yamlStart;
  // The closing delimiter must start a line: the regex is multiline, so check that the match sits at a line start.
  let close: RegExpExecArray | null;
  while ((close = closePattern.exec(rest)) && close.index > 0 && rest[close.index - 1] !== '\n') {
    /* keep looking */
  }
  const head = (bom ? '\uFEFF' : '') + open[0];
  if (!close || !open[1]) {
    return { ...none, head: bom ? '\uFEFF' : '', body: rest, frontmatter: 'unterminated', bodyLine: 1 };
  }
  const yaml = rest.slice(yamlStart, close.index);
  const bodyStart = close.index + close[0].length;
  return {
    head,
    yaml,
    close: close[0],
    body: rest.slice(bodyStart),
    bom,
    eol,
    frontmatter: 'ok',
    yamlLine: 2,
    bodyLine: 2 + countLines(yaml) + (close[0].endsWith('\n') ? 1 : 0),
  };
}

export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
