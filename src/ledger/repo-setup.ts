import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { SkillgardenError } from '../core/errors.js';
import { readConfigLayers } from './config-files.js';
import type { RepoLayout } from './git-dir.js';
import { buildConfig, parseConfigList } from './git-config.js';
import type { GitConfig } from './git-config.js';
import type { LedgerBackend } from './ledger.js';
import type { ReflogPolicy } from './refs.js';
import { readHeadState } from './refs.js';
import { runGitChecked } from './system-git.js';

/** The repository's git settings that change how a commit must be written, read once when the ledger opens. */
export interface RepoSetup {
  config: GitConfig;
  /** `commit.gpgSign`: commits must be signed (`gpg.format` says how; git does it). */
  sign: boolean;
  objectFormat: string;
  reflog: ReflogPolicy;
  fsync: FsyncSet;
  /** `core.autocrlf` true/input: every text file is converted on the way in and out. */
  autocrlf: boolean;
  /** Attribute files outside the working tree (info/attributes, core.attributesFile) that convert files. */
  globalAttributes: string[];
  /** Paths in the sparse set; `undefined` without sparse checkout. */
  sparse: Ignore | undefined;
  sparseFile: string;
}

export interface FsyncSet {
  looseObject: boolean;
  reference: boolean;
  index: boolean;
}

export async function readRepoSetup(layout: RepoLayout, backend: LedgerBackend): Promise<RepoSetup> {
  const config = await readRepoConfig(layout, backend);
  const bare = config.bool('core.bare') ?? false;
  const logAll = config.get('core.logAllRefUpdates');
  const sparseFile = join(layout.gitdir, 'info', 'sparse-checkout');
  const attributesFile =
    config.get('core.attributesFile') ?? join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'git', 'attributes');
  return {
    config,
    sign: config.bool('commit.gpgSign') ?? false,
    objectFormat: config.get('extensions.objectFormat')?.toLowerCase() ?? 'sha1',
    reflog: logAll?.toLowerCase() === 'always' ? 'always' : (config.bool('core.logAllRefUpdates') ?? !bare) ? 'true' : 'false',
    fsync: parseFsync(config.get('core.fsync'), config.bool('core.fsyncObjectFiles') ?? false),
    autocrlf: /^(true|yes|on|1|input)$/i.test(config.get('core.autocrlf') ?? ''),
    globalAttributes: [attributesFile, join(layout.commondir, 'info', 'attributes')].filter(convertsFiles),
    sparse: config.bool('core.sparseCheckout') ? ignore().add(readText(sparseFile) ?? '') : undefined,
    sparseFile,
  };
}

async function readRepoConfig(layout: RepoLayout, backend: LedgerBackend): Promise<GitConfig> {
  if (backend === 'system-git') return buildConfig(parseConfigList(await runGitChecked(['config', '--list', '-z'], { cwd: layout.dir })));
  const head = await readHeadState(layout).catch(() => undefined);
  return buildConfig(readConfigLayers(layout, head?.kind === 'branch' ? head.ref : undefined));
}

/**
 * `core.fsync` (git-config(1)): a comma list starting from git's default (packs and their
 * metadata only: not loose objects, refs or the index); `-x` removes, `none` clears. Only the
 * parts the ledger writes itself are kept (git fast-import fsyncs its packs as configured).
 */
export function parseFsync(value: string | undefined, legacyObjects: boolean): FsyncSet {
  const set = { looseObject: legacyObjects, reference: false, index: false };
  const groups: Record<string, Array<keyof FsyncSet>> = {
    'loose-object': ['looseObject'],
    objects: ['looseObject'],
    reference: ['reference'],
    index: ['index'],
    committed: ['looseObject', 'reference'],
    added: ['looseObject', 'reference', 'index'],
    all: ['looseObject', 'reference', 'index'],
  };
  for (const raw of (value ?? '').split(',')) {
    const word = raw.trim();
    if (word === 'none') Object.assign(set, { looseObject: false, reference: false, index: false });
    const remove = word.startsWith('-');
    for (const part of groups[remove ? word.slice(1) : word] ?? []) set[part] = !remove;
  }
  return set;
}

/** An attributes line that sets or values a converting attribute (`text`, `eol`, `filter`, …); `-text` and `binary` convert nothing. */
const converting = /(^|\s)(text|eol|crlf|filter|ident|working-tree-encoding)(=|\s|$)/m;

export function convertsFiles(path: string): boolean {
  const text = readText(path);
  return text !== undefined && converting.test(text.replace(/^\s*#.*$/gm, ''));
}

/**
 * The paths of a commit that git may convert (eol, filters): under
 * `core.autocrlf` every one; else those under a `.gitattributes` (in the
 * working tree, in a folder above the path) or a global attributes file that
 * sets a converting attribute. For those, git decides the bytes.
 */
export function pathsToConvert(setup: RepoSetup, dir: string, paths: readonly string[]): string[] {
  if (setup.autocrlf || setup.globalAttributes.length > 0) return [...paths];
  const checked = new Map<string, boolean>();
  const converts = (folder: string) => {
    let hit = checked.get(folder);
    if (hit === undefined) checked.set(folder, (hit = convertsFiles(join(dir, folder, '.gitattributes'))));
    return hit;
  };
  return paths.filter((path) => {
    const parts = path.split('/').slice(0, -1);
    for (let i = 0; i <= parts.length; i += 1) if (converts(parts.slice(0, i).join('/'))) return true;
    return false;
  });
}

/** A write outside the sparse set would create a file git hides (skip-worktree): refused with that reason. */
export function checkSparse(setup: RepoSetup, paths: readonly string[]): void {
  if (!setup.sparse) return;
  const outside = paths.filter((path) => !setup.sparse!.ignores(path));
  if (outside.length === 0) return;
  const folder = outside[0]!.split('/').slice(0, -1).join('/') || outside[0]!;
  throw new SkillgardenError(
    'ledger/outside-sparse',
    `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the sparse checkout (${setup.sparseFile}). Add the folder to it (\`git sparse-checkout add ${folder}\`) and retry.`,
    { data: { paths: outside, file: setup.sparseFile } },
  );
}

/** What the embedded backend cannot do right, refused before anything is written. */
export function checkEmbeddedCanWrite(setup: RepoSetup, dir: string, paths: readonly string[]): void {
  const refuse = (what: string, fix: string) => {
    throw new SkillgardenError('ledger/unsupported-repo', `The embedded backend (no git binary) cannot write to ${dir}: ${what}. ${fix}`, {
      data: { dir, reason: what },
    });
  };
  if (setup.sign)
    refuse(
      'commit.gpgSign is set and signing needs git',
      'Install git (the default backend then signs as git does), or unset commit.gpgSign.',
    );
  const converted = pathsToConvert(setup, dir, paths);
  if (converted.length > 0) {
    refuse(
      `${converted[0]} would be converted by core.autocrlf or a .gitattributes text/eol/filter rule, which only git applies`,
      'Install git, or turn the conversion off for these paths.',
    );
  }
}

/** Refused on both backends: the object writer is SHA-1 only. */
export function checkObjectFormat(setup: RepoSetup, dir: string): void {
  if (setup.objectFormat === 'sha1') return;
  throw new SkillgardenError(
    'ledger/unsupported-repo',
    `${dir} uses the ${setup.objectFormat} object format (extensions.objectFormat); skillgarden writes SHA-1 objects only. Use a SHA-1 repository.`,
    { data: { dir, objectFormat: setup.objectFormat } },
  );
}

function readText(path: string): string | undefined {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
