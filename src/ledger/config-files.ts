import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import picomatch from 'picomatch';
import { SkillgardenError } from '../core/errors.js';
import type { RepoLayout } from './git-dir.js';

/**
 * Git's configuration layers read without git, for the embedded backend:
 * system, global (`GIT_CONFIG_GLOBAL`, else XDG then `~/.gitconfig`),
 * repository, worktree (`extensions.worktreeConfig`), then `GIT_CONFIG_COUNT`
 * pairs, with `include.path` and the `includeIf` conditions `gitdir:`,
 * `gitdir/i:` and `onbranch:`. Any other condition is refused: guessing it
 * could pick the wrong identity.
 */
export function readConfigLayers(layout: RepoLayout, branch: string | undefined): Array<[string, string]> {
  const env = process.env;
  const home = env.HOME ?? homedir();
  const pairs: Array<[string, string]> = [];
  const context: IncludeContext = { gitdir: layout.gitdir, branch, home, depth: 0 };
  const read = (path: string) => readConfigFile(path, context, pairs);
  if (!env.GIT_CONFIG_NOSYSTEM || env.GIT_CONFIG_NOSYSTEM === '0' || env.GIT_CONFIG_NOSYSTEM === 'false') {
    read(env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig');
  }
  if (env.GIT_CONFIG_GLOBAL !== undefined) read(env.GIT_CONFIG_GLOBAL);
  else {
    read(join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config'));
    read(join(home, '.gitconfig'));
  }
  read(join(layout.commondir, 'config'));
  const worktreeConfig = pairs.filter(([k]) => k.toLowerCase() === 'extensions.worktreeconfig').at(-1)?.[1];
  if (worktreeConfig !== undefined && /^(true|yes|on|1)$/i.test(worktreeConfig)) read(join(layout.gitdir, 'config.worktree'));
  const count = Number(env.GIT_CONFIG_COUNT ?? 0);
  for (let i = 0; i < count; i += 1) {
    const key = env[`GIT_CONFIG_KEY_${i}`];
    if (key) pairs.push([key, env[`GIT_CONFIG_VALUE_${i}`] ?? '']);
  }
  return pairs;
}

interface IncludeContext {
  gitdir: string;
  branch: string | undefined;
  home: string;
  depth: number;
}

function readConfigFile(path: string, context: IncludeContext, out: Array<[string, string]>): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  for (const [key, value, line] of parseConfigText(text, path)) {
    out.push([key, value]);
    const include = includeTarget(key, value, path, line, context);
    if (include === undefined) continue;
    if (context.depth >= 10) throw unsupported(path, line, 'includes nested more than 10 deep');
    readConfigFile(include, { ...context, depth: context.depth + 1 }, out);
  }
}

function includeTarget(key: string, value: string, file: string, line: number, context: IncludeContext): string | undefined {
  const lower = key.toLowerCase();
  const target = () => {
    const expanded = value.startsWith('~/') ? join(context.home, value.slice(2)) : value;
    return isAbsolute(expanded) ? expanded : resolve(dirname(file), expanded);
  };
  if (lower === 'include.path') return target();
  const match = /^includeif\.(.*)\.path$/is.exec(key);
  if (!match) return undefined;
  const condition = match[1] ?? '';
  const gitdir = /^gitdir(\/i)?:(.*)$/.exec(condition);
  if (gitdir) return matchesGitDir(gitdir[2] ?? '', gitdir[1] !== undefined, file, context) ? target() : undefined;
  if (condition.startsWith('onbranch:')) {
    const branch = context.branch?.replace(/^refs\/heads\//, '');
    let pattern = condition.slice('onbranch:'.length);
    if (pattern.endsWith('/')) pattern += '**';
    return branch !== undefined && picomatch.isMatch(branch, pattern, { dot: true }) ? target() : undefined;
  }
  throw unsupported(file, line, `uses includeIf "${condition.slice(0, 60)}", which only git itself can evaluate`);
}

/** git-config(1) "Conditional includes": `~/` and `./` expand, a pattern without a leading `/` matches anywhere, a trailing `/` matches everything below. */
function matchesGitDir(raw: string, ignoreCase: boolean, file: string, context: IncludeContext): boolean {
  let pattern = raw;
  if (pattern.startsWith('~/')) pattern = join(context.home, pattern.slice(2));
  else if (pattern.startsWith('./')) pattern = join(dirname(file), pattern.slice(2));
  else if (!isAbsolute(pattern)) pattern = `**/${pattern}`;
  if (pattern.endsWith('/')) pattern += '**';
  const gitdir = context.gitdir.replace(/\/+$/, '');
  return (
    picomatch.isMatch(gitdir, pattern, { dot: true, nocase: ignoreCase }) ||
    picomatch.isMatch(`${gitdir}/`, pattern, { dot: true, nocase: ignoreCase })
  );
}

/** Git's config syntax: `[section "sub"]`, `name = value`, quotes, escapes, `#`/`;` comments, `\` line continuation. */
export function parseConfigText(text: string, file: string): Array<[string, string, number]> {
  const out: Array<[string, string, number]> = [];
  const lines = text.split(/\r?\n/);
  let section = '';
  for (let i = 0; i < lines.length; i += 1) {
    let line = lines[i]!.replace(/^\s+/, '');
    const lineNo = i + 1;
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1]!.toLowerCase();
      section = header[2] === undefined ? name : `${name}.${header[2].replace(/\\(.)/g, '$1')}`;
      line = header[3] ?? '';
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)(.*)$/.exec(line);
    if (!entry || section === '') throw unsupported(file, lineNo, `has a line git cannot parse: "${line.slice(0, 60)}"`);
    const key = `${section}.${entry[1]!.toLowerCase()}`;
    if (entry[2] === '') {
      out.push([key, 'true', lineNo]);
      continue;
    }
    let raw = entry[3] ?? '';
    while (/(^|[^\\])(\\\\)*\\$/.test(raw) && i + 1 < lines.length) {
      raw = raw.slice(0, -1) + lines[(i += 1)]!;
    }
    out.push([key, parseValue(raw), lineNo]);
  }
  return out;
}

function parseValue(raw: string): string {
  let value = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (c === '\\') {
      const next = raw[(i += 1)] ?? '';
      value += pendingSpace + ({ n: '\n', t: '\t', b: '\b' }[next] ?? next);
      pendingSpace = '';
    } else if (!quoted && /\s/.test(c)) {
      if (value !== '') pendingSpace += c;
    } else {
      value += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return value;
}

function unsupported(file: string, line: number, what: string): SkillgardenError {
  return new SkillgardenError(
    'ledger/unsupported-repo',
    `${file}:${line} ${what}. The embedded backend reads git configuration without git; install git (the default backend then asks git), or simplify that file.`,
    { data: { path: file, line } },
  );
}
