import { isGenericCommand } from './generic.js';
import { buildCommandHead, parseProgram } from './shape.js';

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
 * The shell commands a skill's own steps run, as the transcript readers reduce a session's shell calls to a
 * `detail` head (`parseProgram`, `buildCommandHead`): `npx prisma migrate dev --name <change>` → its head. A line's
 * `&&`, `||` and `;` separate commands; `\` continuations are joined; `$ `, `> ` and `% ` prompts and `#` comments
 * are left out; `cd DIR` only says where (the readers skip it too). Coverage (draft.ts) and the evidence's miss
 * rule (procedure.ts) both read a skill's commands here.
 */
export function listSkillCommandHeads(text: string): string[] {
  const out = new Set<string>();
  const code = codeOf(text).replace(/\\\n\s*/g, ' ');
  for (const line of code.split('\n')) {
    const command = line
      .replace(/^\s*(?:\$|>|%)\s+/, '')
      .replace(/\s#.*$/, '')
      .trim();
    if (command === '' || command.startsWith('#')) continue;
    for (const part of command.split(/&&|\|\||;/)) {
      const program = parseProgram(part);
      if (program === undefined || program === 'cd' || !/^[a-z][a-z0-9._+-]*$/i.test(program)) continue;
      const head = buildCommandHead(part, program);
      if (head !== undefined) out.add(head);
    }
  }
  return [...out];
}

/** A pattern's commands that name its procedure: the ones that only look around (`git status`, `ls`) left out. */
export function distinctiveCommands(commands: readonly string[]): string[] {
  return [...new Set(commands)].filter((c) => !isGenericCommand(c));
}
