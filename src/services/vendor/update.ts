import { SkillgardenError } from '../../core/errors.js';
import { skillFileName } from '../../core/layout.js';
import {
  computeDigest,
  lockFileName,
  planFileMerge,
  requirePinned,
  serializeLock,
  type PinnedEntry,
  type SkillsLock,
} from '../../core/vendor/index.js';
import type { FileChange } from '../../ledger/ledger.js';
import { commitAction, type ManageContext, type ManageResult } from '../manage/context.js';
import { openManagedLibrary } from '../manage/locate.js';
import { groupBySource, requireCommit } from './install.js';
import { hasCommit, logTouching, mergeText, openUpstream, readUpstreamFiles, type Upstream, type UpstreamFile } from './upstream.js';
import { checkVendored, digestOf, readLock, readVendoredFolder, type VendoredCheck } from './vendored-skill.js';

export interface UpdateOptions {
  /** Only these vendored skills (default: all in the lock). */
  names: readonly string[];
  /** List the skills behind their source; write nothing. */
  check: boolean;
  now: Date;
}

export interface SkillStatus {
  name: string;
  dir: string;
  source: string;
  /** The pinned commit and the ref's tip. */
  from: string;
  to: string;
  /** The skill's folder differs upstream. */
  behind: boolean;
  /** The pinned commit is no longer in the source (its history was rewritten). */
  gone?: boolean;
  /** Upstream commits between the two that touched the folder, newest first (`%h %s`). */
  commits: string[];
}

export interface UpdateResult {
  skills: SkillStatus[];
  /** One per updated skill (a staged one names its branch). */
  applied: ManageResult[];
}

interface Conflict {
  file: string;
  reason: string;
}

interface Planned {
  status: SkillStatus;
  entry: PinnedEntry;
  changes: FileChange[];
  check: VendoredCheck;
}

/**
 * `skillgarden update`: each vendored skill whose folder changed upstream, merged
 * three ways (base: the pinned upstream, ours: the library at HEAD, theirs: the
 * ref's tip) and committed on its own with the lock. Every skill is planned, merged
 * and scanned before the first commit: a conflict anywhere writes nothing.
 */
export async function updateVendored(ctx: ManageContext, options: UpdateOptions): Promise<UpdateResult> {
  const lock = readLock(ctx.repoDir);
  const unknown = options.names.filter((n) => lock.skills[n] === undefined);
  if (unknown.length > 0) {
    throw new SkillgardenError(
      'vendor/unknown-skill',
      `${lockFileName} has no skill ${unknown.map((n) => `"${n}"`).join(', ')}; it has: ${Object.keys(lock.skills).sort().join(', ') || 'none'}.`,
      {
        data: { skills: unknown, exitCode: 2 },
      },
    );
  }
  const names = options.names.length > 0 ? [...options.names] : Object.keys(lock.skills).sort();
  const library = openManagedLibrary(ctx);
  const statuses: SkillStatus[] = [];
  const plans: Planned[] = [];
  const conflicts: Conflict[] = [];
  for (const group of groupBySource(names.map((n) => [n, requirePinned(n, lock.skills[n]!)] as const)).values()) {
    const upstream = await openUpstream(group[0]![1].sourceUrl, group[0]![1].ref);
    try {
      for (const [name, entry] of group) {
        const dir = library.skills.find((s) => s.name === name)?.path;
        if (dir === undefined) {
          throw new SkillgardenError(
            'vendor/missing',
            `skill "${name}" is in ${lockFileName} but not in the library; \`skillgarden install --frozen\` puts it back. Nothing was written.`,
            {
              data: { skill: name, exitCode: 2 },
            },
          );
        }
        // A rewritten history is an error, unless the person names the skill: then the new tip is what they asked for.
        const gone = !(await hasCommit(upstream, entry.commit));
        if (gone && (options.check || !options.names.includes(name))) await requireCommit(upstream, name, entry);
        const status = await statusOf(upstream, name, dir, entry, gone);
        statuses.push(status);
        if (options.check || !status.behind) continue;
        const planned = await planUpdate(ctx, upstream, status, entry, conflicts);
        if (planned) plans.push(planned);
      }
    } finally {
      upstream.close();
    }
  }
  if (conflicts.length > 0) {
    throw new SkillgardenError(
      'vendor/conflict',
      `the library and the source changed the same lines (nothing was written):\n${conflicts.map((c) => `  ${c.file}: ${c.reason}`).join('\n')}\nResolve them by hand in the library (keep, or take the source's lines), commit, then run update again.`,
      { data: { conflicts, exitCode: 1 } },
    );
  }
  const applied: ManageResult[] = [];
  for (const plan of plans) applied.push(await commitUpdate(ctx, lock, plan, options.now));
  return { skills: statuses, applied };
}

async function statusOf(upstream: Upstream, name: string, dir: string, entry: PinnedEntry, gone: boolean): Promise<SkillStatus> {
  const base = { name, dir, source: entry.source, from: entry.commit, to: upstream.tip, behind: false, commits: [] };
  if (upstream.tip === entry.commit) return base;
  const theirs = await readUpstreamFiles(upstream, upstream.tip, entry.skillPath);
  if (digestOf(theirs) === entry.computedHash) return base;
  return { ...base, behind: true, gone, commits: gone ? [] : await logTouching(upstream, entry.commit, upstream.tip, entry.skillPath) };
}

async function planUpdate(
  ctx: ManageContext,
  upstream: Upstream,
  status: SkillStatus,
  entry: PinnedEntry,
  conflicts: Conflict[],
): Promise<Planned | undefined> {
  const theirs = await readVendoredFolder(upstream, status.to, status.name, entry.skillPath);
  const ours = new Map<string, Uint8Array>();
  for (const file of await ctx.ledger.listFiles(status.dir)) {
    ours.set(file.path.slice(status.dir.length + 1), (await ctx.ledger.readFile(file.path)) ?? new Uint8Array());
  }
  const base = status.gone ? pinnedFromLibrary(status, entry, ours) : await readUpstreamFiles(upstream, entry.commit, entry.skillPath);
  const byPath = (files: UpstreamFile[]) => new Map(files.map((f) => [f.path, f]));
  const [baseFiles, theirFiles] = [byPath(base), byPath(theirs.files)];
  const changes: FileChange[] = [];
  const pending = new Map<string, Uint8Array | null>();
  const before = conflicts.length;
  for (const path of [...new Set([...baseFiles.keys(), ...ours.keys(), ...theirFiles.keys()])].sort()) {
    const file = `${status.dir}/${path}`;
    const sides = { base: baseFiles.get(path)?.bytes, ours: ours.get(path), theirs: theirFiles.get(path)?.bytes };
    const decision = planFileMerge(sides);
    let bytes: Uint8Array | null;
    if (decision.kind === 'keep') continue;
    else if (decision.kind === 'conflict') {
      conflicts.push({ file, reason: decision.reason });
      continue;
    } else if (decision.kind === 'delete') bytes = null;
    else if (decision.kind === 'take') bytes = decision.bytes;
    else {
      const merged = await mergeText(upstream, sides as { base: Uint8Array; ours: Uint8Array; theirs: Uint8Array });
      if (merged.conflictLines.length > 0) {
        conflicts.push({ file, reason: `both changed the same lines (conflict at line ${merged.conflictLines.join(', ')} of the merge)` });
        continue;
      }
      bytes = merged.bytes;
    }
    pending.set(path, bytes);
    const upstreamFile = theirFiles.get(path);
    changes.push({
      path: file,
      content: bytes,
      ...(upstreamFile ? { executable: upstreamFile.executable, symlink: upstreamFile.symlink } : {}),
    });
  }
  if (conflicts.length > before) return undefined;
  const after = [...new Set([...ours.keys(), ...pending.keys()])].filter((p) => pending.get(p) !== null);
  const skillMd = ours.get(skillFileName);
  const check = await checkVendored(ctx, {
    name: status.name,
    dir: status.dir,
    pending,
    ...(skillMd ? { before: Buffer.from(skillMd).toString('utf8') } : {}),
    after,
  });
  return { status, entry: { ...entry, commit: status.to, computedHash: theirs.digest }, changes, check };
}

/** One commit per skill, the lock with it; a staged one carries its own copy of the lock, so the branch's lock stays as it was. */
async function commitUpdate(ctx: ManageContext, lock: SkillsLock, plan: Planned, now: Date): Promise<ManageResult> {
  const { status } = plan;
  const entry = { ...plan.entry, updatedAt: now.toISOString() };
  const staged = plan.check.gate.decision === 'ask';
  const next: SkillsLock = { ...lock, skills: { ...lock.skills, [status.name]: entry } };
  if (!staged) lock.skills[status.name] = entry;
  const range = `${status.from.slice(0, 12)}..${status.to.slice(0, 12)}`;
  const body = [
    `Upstream commits touching ${plan.entry.skillPath}/ in ${status.source} (${range}):`,
    ...status.commits.map((c) => `  ${c}`),
  ].join('\n');
  const message = `update ${status.name} to ${status.to.slice(0, 12)} from ${status.source}`;
  return commitAction(
    { ...ctx, message },
    'update',
    [status.name],
    body,
    [...plan.changes, { path: lockFileName, content: serializeLock(next) }],
    { warnings: plan.check.warnings, commits: status.commits, from: status.from, to: status.to },
    plan.check.gate,
  );
}

/**
 * With the pinned commit gone, the base is the library's folder, when it is still exactly the pinned content;
 * a folder edited here has no base left to merge with, and is refused.
 */
function pinnedFromLibrary(status: SkillStatus, entry: PinnedEntry, ours: ReadonlyMap<string, Uint8Array>): UpstreamFile[] {
  const files = [...ours].map(([path, bytes]) => ({ path, bytes, executable: false, symlink: false }));
  if (computeDigest(files) === entry.computedHash) return files;
  throw new SkillgardenError(
    'vendor/commit-gone',
    `skill "${status.name}": the pinned commit ${entry.commit.slice(0, 12)} is no longer in ${status.source} (its history was rewritten), and ${status.dir} was edited here since, so there is no base to merge with. Nothing was written. Remove the skill, \`skillgarden add\` it again at ${status.to.slice(0, 12)}, then apply the edits again.`,
    { data: { skill: status.name, tip: status.to, exitCode: 2 } },
  );
}
