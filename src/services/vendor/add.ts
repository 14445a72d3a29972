import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serializeLock, lockFileName, resolveSource, type LockEntry } from '../../core/vendor/index.js';
import type { FileChange } from '../../ledger/ledger.js';
import { chooseWriteRoot, openLibrary } from '../../store/layout/discover-library.js';
import { commitAction, type ManageContext, type ManageResult } from '../manage/context.js';
import { openManagedLibrary } from '../manage/locate.js';
import { checkoutUpstream, openUpstream, redactUrl } from './upstream.js';
import { checkVendored, readLock, readVendoredFolder, refuse, type VendoredCheck } from './vendored-skill.js';

export interface AddOptions {
  /** A git URL, a local path (relative to `cwd`), or `owner/repo`. */
  source: string;
  /** Only these skills of the source (default: all). */
  skills?: readonly string[];
  ref?: string;
  /** The library root they go to, when it has several. */
  root?: string;
  cwd: string;
  now: Date;
}

export interface AddedSkill {
  name: string;
  /** Where it went in the library. */
  dir: string;
  /** Where it was in the source. */
  skillPath: string;
  commit: string;
  computedHash: string;
}

export interface AddResult extends ManageResult {
  added: AddedSkill[];
}

/** `skillgarden add`: the source's skills copied into the library and pinned in `skills-lock.json`, in one commit. */
export async function addVendored(ctx: ManageContext, options: AddOptions): Promise<AddResult> {
  const candidate = resolve(options.cwd, options.source);
  const source = resolveSource(options.source, existsSync(candidate) ? candidate : undefined);
  const lock = readLock(ctx.repoDir);
  const library = openManagedLibrary(ctx);
  const root = chooseWriteRoot(library.layout, options.root);
  const upstream = await openUpstream(source.url, options.ref);
  try {
    await checkoutUpstream(upstream, upstream.tip);
    const found = openLibrary(upstream.dir, undefined).skills;
    const shown = redactUrl(source.url);
    if (found.length === 0) throw refuse('vendor/no-skills', `no skills found in ${shown} at ${upstream.tip.slice(0, 12)}.`);
    const wanted = options.skills && options.skills.length > 0 ? options.skills : found.map((s) => s.name);
    const missing = wanted.filter((name) => !found.some((s) => s.name === name));
    if (missing.length > 0) {
      throw refuse(
        'vendor/unknown-skill',
        `${shown} has no skill ${missing.map((m) => `"${m}"`).join(', ')}; it has: ${listNames(found.map((s) => s.name))}.`,
      );
    }
    const taken = new Map([...library.skills, ...library.archived].map((s) => [s.name, s.path]));
    const changes: FileChange[] = [];
    const added: AddedSkill[] = [];
    const checks: VendoredCheck[] = [];
    for (const skill of found.filter((s) => wanted.includes(s.name))) {
      const dir = root === '' ? skill.name : `${root}/${skill.name}`;
      const clash =
        taken.get(skill.name) ?? (lock.skills[skill.name] ? `${lockFileName}` : existsSync(resolve(ctx.repoDir, dir)) ? dir : undefined);
      if (clash !== undefined) {
        throw refuse(
          'vendor/name-taken',
          `skill "${skill.name}" (${skill.path} in ${shown}) collides with ${clash} in the library.`,
          skill.name,
        );
      }
      const folder = await readVendoredFolder(upstream, upstream.tip, skill.name, skill.path);
      const pending = new Map(folder.files.map((f) => [f.path, f.bytes] as const));
      checks.push(await checkVendored(ctx, { name: skill.name, dir, pending, after: folder.files.map((f) => f.path) }));
      for (const file of folder.files) {
        changes.push({
          path: `${dir}/${file.path}`,
          content: file.bytes,
          expected: null,
          executable: file.executable,
          symlink: file.symlink,
        });
      }
      lock.skills[skill.name] = lockEntry(source, options, { skillPath: skill.path, commit: upstream.tip, computedHash: folder.digest });
      added.push({ name: skill.name, dir, skillPath: skill.path, commit: upstream.tip, computedHash: folder.digest });
    }
    changes.push({ path: lockFileName, content: serializeLock(lock) });
    const ask = checks.find((c) => c.gate.decision === 'ask');
    const gate = {
      decision: ask ? ('ask' as const) : ('allow' as const),
      verdict: (ask ?? checks[0])?.gate.verdict ?? 'safe',
      warnings: [],
    };
    const names = added.map((a) => a.name);
    const summary = `add from ${redactUrl(source.source)}${options.ref ? `@${options.ref}` : ''} at ${upstream.tip.slice(0, 12)}`;
    const result = await commitAction(ctx, 'add', names, summary, changes, { warnings: checks.flatMap((c) => c.warnings) }, gate);
    return { ...result, added };
  } finally {
    upstream.close();
  }
}

function lockEntry(
  source: ReturnType<typeof resolveSource>,
  options: AddOptions,
  pinned: { skillPath: string; commit: string; computedHash: string },
): LockEntry {
  return {
    source: redactUrl(source.source),
    sourceType: source.sourceType,
    ...(options.ref ? { ref: options.ref } : {}),
    computedHash: pinned.computedHash,
    sourceUrl: redactUrl(source.url),
    skillPath: pinned.skillPath,
    commit: pinned.commit,
    installedAt: options.now.toISOString(),
  };
}

/** Names for a message: the first twenty, then how many more. */
function listNames(names: readonly string[]): string {
  return names.length <= 20 ? names.join(', ') : `${names.slice(0, 20).join(', ')} … and ${names.length - 20} more`;
}
