import type { ToolCall } from './types.js';

/**
 * Which tools get refined by their shell command, and under which argument
 * key the command lives. `false` turns refinement off.
 */
export type RefineMap = Readonly<Record<string, string>>;

export const defaultRefine: RefineMap = {
  Bash: 'command',
  bash: 'command',
  execute_bash: 'command',
  exec_command: 'cmd',
  shell: 'command',
  run_shell_command: 'command',
  local_shell: 'command',
  // Cursor's shell tool and Cline's.
  Shell: 'command',
  execute_command: 'command',
};

const envAssignment = /^[A-Za-z_][A-Za-z0-9_]*=/;
const shells = new Set(['sh', 'bash', 'zsh', '/bin/sh', '/bin/bash', '/bin/zsh', '/usr/bin/bash', '/usr/bin/zsh']);
const wrappers = new Set(['env', 'time', 'nohup', 'exec', 'command', 'builtin']);
// sudo options that take a value (`sudo -u postgres psql`).
const sudoValueFlags = new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U']);
const separators = new Set(['&&', ';', '||', '|']);

function programWord(word: string): string | undefined {
  const bare = word.replace(/^["'(]+|["');]+$/g, '');
  const base = bare.slice(bare.lastIndexOf('/') + 1);
  const clean = base.replace(/[^A-Za-z0-9._+-]/g, '');
  return clean === '' ? undefined : clean.slice(0, 40);
}

/** Index after a `cd DIR &&` (or `cd DIR;`) prefix, or -1 when the command is only a `cd`. */
function skipCd(words: readonly string[], from: number): number {
  for (let i = from; i < words.length; i += 1) {
    const word = words[i] ?? '';
    if (separators.has(word)) return i + 1;
    if (word.endsWith(';') || word.endsWith('&&')) return i + 1;
  }
  return -1;
}

/**
 * The program a shell command runs: its first word, past `sudo`, environment
 * assignments, wrappers such as `env`, and a leading `cd DIR &&`.
 * `git -C x status` → `git`; `cd app && npm test` → `npm`.
 */
export function parseProgram(command: string | readonly string[]): string | undefined {
  if (typeof command !== 'string') {
    const [first, flag, script] = command;
    if (first !== undefined && shells.has(first) && (flag === '-c' || flag === '-lc') && typeof script === 'string') {
      return parseProgram(script);
    }
    return first === undefined ? undefined : programWord(first);
  }
  const words = command.trim().split(/\s+/);
  let i = 0;
  while (i < words.length) {
    const word = words[i] ?? '';
    if (word === 'sudo' || wrappers.has(word)) {
      i += 1;
      while ((words[i] ?? '').startsWith('-')) {
        i += word === 'sudo' && sudoValueFlags.has(words[i] ?? '') ? 2 : 1;
      }
    } else if (envAssignment.test(word) || word === '(' || word === '{') {
      i += 1;
    } else if (word === 'cd') {
      const next = skipCd(words, i + 1);
      if (next < 0) return 'cd';
      i = next;
    } else {
      return programWord(word);
    }
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function commandOf(args: unknown, key: string): string | readonly string[] | undefined {
  if (!isRecord(args)) return undefined;
  const value = args[key];
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value;
  return undefined;
}

/** The argument shape: sorted argument keys, e.g. `file_path,limit`. */
export function buildArgShape(args: unknown): string {
  return isRecord(args) ? Object.keys(args).sort().join(',') : '';
}

export interface BuildCallOptions {
  refine: RefineMap | false;
  time?: string | undefined;
}

/** Normalises one tool call: its name, its argument shape, (for shell tools) its program, and a short detail. */
export function buildToolCall(name: string, args: unknown, options: BuildCallOptions): ToolCall {
  const key = options.refine === false ? undefined : options.refine[name];
  const command = key === undefined ? undefined : commandOf(args, key);
  const program = command === undefined ? undefined : parseProgram(command);
  const call: ToolCall = program === undefined ? { name, shape: buildArgShape(args) } : { name, shape: program, program };
  const detail = command !== undefined && program !== undefined ? buildCommandHead(command, program) : buildFileDetail(args);
  if (detail !== undefined) call.detail = detail;
  const chain = command !== undefined && program !== undefined ? buildChainHeads(command) : [];
  if (chain.length > 0) call.chain = chain;
  if (options.time !== undefined) call.time = options.time;
  return call;
}

/** A command longer than this is kept to its last whole word within it, marked `…`. */
const maxDetail = 200;

/** Shell words, a quoted argument one word with its quotes (`-m "fix the bug"`), adjacent parts joined (`--x="a b"`). */
export function splitShellWords(text: string): string[] {
  return text.match(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"?|'[^']*'?)+/g) ?? [];
}

const commandEnds = new Set(['&&', '||', ';']);

/**
 * The words of a list-form command: the script's for `["bash", "-lc", "npm version patch"]` (Codex's `shell`), read
 * as `parseProgram` reads its program; otherwise each argument, quoted where the shell would need it.
 */
function argvWords(argv: readonly string[]): string[] {
  const script = shellText(argv);
  if (script !== undefined) return splitShellWords(script.trim());
  return argv.map((w) => (/[\s"'$`\\|&;<>()]/.test(w) ? `'${w.replace(/'/g, `'\\''`)}'` : w));
}

/**
 * The command a step runs, from its program to the end of that command (a pipe and redirections are part of it,
 * `&&`, `||` and `;` end it), with every argument whole: a draft shows it as it was run, never cut mid-argument.
 * `cd app && npm test -- --run` → `npm test -- --run`; `git commit -m "x y" && git push` → `git commit -m "x y"`.
 */
export function buildCommandHead(command: string | readonly string[], program: string): string | undefined {
  const words = typeof command === 'string' ? splitShellWords(command.trim()) : argvWords(command);
  const start = words.findIndex((w) => programWord(w) === program);
  if (start < 0) return program;
  const head = [program];
  let length = program.length;
  for (const word of words.slice(start + 1)) {
    if (commandEnds.has(word)) break;
    const bare = word.replace(/;+$/, '');
    if (length + 1 + bare.length > maxDetail) {
      head.push('…');
      break;
    }
    head.push(bare);
    length += 1 + bare.length;
    if (bare !== word) break;
  }
  return head.join(' ');
}

/** The shell text a call ran, where it is text: the command string, or the script of `bash -lc SCRIPT`. */
function shellText(command: string | readonly string[]): string | undefined {
  if (typeof command === 'string') return command;
  const [first, flag, script] = command;
  return first !== undefined && shells.has(first) && (flag === '-c' || flag === '-lc') && typeof script === 'string' ? script : undefined;
}

/**
 * The commands chained after the first one a step runs, each as `buildCommandHead` gives it, `cd DIR` left out:
 * `npm run build && npm publish` → [`npm publish`]; none for a lone command. Agents chain their steps, and evidence
 * matches a skill's procedure (and reads how a session ended) on every command, not the first alone.
 */
export function buildChainHeads(command: string | readonly string[]): string[] {
  const text = shellText(command);
  if (text === undefined || !/&&|\|\||;/.test(text)) return [];
  const segments: string[][] = [[]];
  for (const word of splitShellWords(text.trim())) {
    if (commandEnds.has(word)) {
      segments.push([]);
      continue;
    }
    const bare = word.replace(/;+$/, '');
    if (bare !== '') segments[segments.length - 1]?.push(bare);
    if (bare !== word) segments.push([]);
  }
  const heads: string[] = [];
  for (const segment of segments) {
    const step = segment.join(' ');
    const program = step === '' ? undefined : parseProgram(step);
    if (program === undefined || program === 'cd') continue;
    const head = buildCommandHead(step, program);
    if (head !== undefined) heads.push(head);
  }
  return heads.slice(1);
}

/**
 * What a draft shows of one call and reads its commands from: its detail, and the commands chained after it, joined
 * by ` && ` (`npm run build && npm publish`). A step's first command alone would hide a chained `npm publish` from
 * the draft's steps, from coverage and from the habit screen.
 */
export function callStepDetail(call: Pick<ToolCall, 'detail' | 'chain'>): string | undefined {
  return call.detail === undefined || call.chain === undefined ? call.detail : [call.detail, ...call.chain].join(' && ');
}

/** A command's program and the plain words after it (`npm version <version>` → `npm version`): how a description names it. */
export function commandName(detail: string): string {
  const [program = '', ...rest] = detail.split(' ');
  const words = [program];
  for (const word of rest) {
    if (words.length >= 3 || !/^[a-z][a-z0-9:_-]*$/.test(word)) break;
    words.push(word);
  }
  return words.join(' ');
}

const pathKeys = ['file_path', 'path', 'absolute_path', 'filename', 'notebook_path', 'file'];

/** A file tool's sub-command (`create`, `str_replace`) and the kind of file it works on (`*.py`). */
function buildFileDetail(args: unknown): string | undefined {
  if (!isRecord(args)) return undefined;
  const parts: string[] = [];
  if (typeof args.command === 'string' && /^[a-z_]{2,20}$/.test(args.command)) parts.push(args.command);
  for (const key of pathKeys) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    const base = value.slice(value.lastIndexOf('/') + 1);
    const ext = /\.([A-Za-z0-9]{1,8})$/.exec(base)?.[1];
    if (ext !== undefined) parts.push(`*.${ext.toLowerCase()}`);
    else if (/^(Makefile|Dockerfile|package\.json)$/.test(base)) parts.push(base);
    break;
  }
  return parts.length === 0 ? undefined : parts.join(' ');
}
