import { isGenericCommand } from './generic.js';
import { buildCommandHead, commandName, parseProgram } from './shape.js';

function bodyOf(text: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(text);
  return match === null ? text : text.slice(match[0].length);
}

/** What a skill's own steps run: its fenced code blocks and inline code spans, one per line. */
export function codeOf(text: string): string {
  const body = bodyOf(text);
  const fence = /^(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^\1/gm;
  const blocks = [...body.matchAll(fence)].map((m) => m[2] ?? '');
  const spans = [...body.replace(fence, '').matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  return [...blocks, ...spans].join('\n');
}

/**
 * The commands a skill's own steps run, reduced the way the transcript readers reduce a session's shell calls
 * (`parseProgram`, `buildCommandHead`, `commandName`): `npx prisma migrate dev --name <change>` → `npx prisma migrate`.
 * A line's `&&`, `||` and `;` separate commands; a `$ ` prompt and `#` comments are left out.
 */
export function listSkillCommands(text: string): string[] {
  const out = new Set<string>();
  for (const line of codeOf(text).split('\n')) {
    const code = line.replace(/^\s*\$\s+/, '').replace(/\s#.*$/, '');
    if (code.trim() === '' || code.trim().startsWith('#')) continue;
    for (const part of code.split(/&&|\|\||;/)) {
      const program = parseProgram(part);
      // `cd DIR &&` only says where: the readers skip it too.
      if (program === undefined || program === 'cd' || !/^[a-z][a-z0-9._+-]*$/i.test(program)) continue;
      const head = buildCommandHead(part, program);
      if (head !== undefined) out.add(commandName(head));
    }
  }
  return [...out];
}

/**
 * Whether one of a skill's commands is a session's command: the same program and the words one of them names
 * start the other (`npm version` covers `npm version patch`); a bare program covers only itself.
 */
export function coversCommand(skillCommands: readonly string[], command: string): boolean {
  const words = command.split(' ');
  return skillCommands.some((known) => {
    const other = known.split(' ');
    if (other[0] !== words[0]) return false;
    if (other.length === 1 || words.length === 1) return other.length === words.length;
    const n = Math.min(other.length, words.length);
    return other.slice(0, n).join(' ') === words.slice(0, n).join(' ');
  });
}

/** A pattern's commands that name its procedure: the ones that only look around (`git status`, `ls`) left out. */
export function distinctiveCommands(commands: readonly string[]): string[] {
  return [...new Set(commands)].filter((c) => !isGenericCommand(c));
}
