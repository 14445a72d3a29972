import { SkillgardenError } from '../core/errors.js';
import { normalizeSkillsRoots } from '../core/ledger/skill-paths.js';
import { buildCommitMessage, parseCommitMessage } from '../core/ledger/trailers.js';
import type { FileChange, Ledger, RollbackOptions, RollbackResult, RollbackTarget } from './ledger.js';
import type { DiffOptions, FileDiff } from './diff-trees.js';
import { folderMode } from './object-store.js';
import type { BlobRef } from './tree-edit.js';
import { findFolderMove, findOrphans, listRemovedSkills, planRollback } from './rollback-plan.js';
import type { NetChange } from './rollback-plan.js';

/**
 * Fail-closed revert (DESIGN §3): every file the target commit(s) changed
 * must still hold the version they left, or the rollback refuses and writes
 * nothing. The result is one ordinary commit, so it can be rolled back too.
 */
/** What a rollback reads and writes: the ledger, with file modes (git-ledger.ts). */
export interface RollbackLedger extends Ledger {
  diff(commit: string, options?: DiffOptions): Promise<FileDiff[]>;
  lookup(paths: readonly string[], commit?: string, options?: { folders?: boolean }): Promise<Map<string, BlobRef | undefined>>;
  readBlob(oid: string): Promise<Uint8Array>;
}

export async function rollback(ledger: RollbackLedger, target: RollbackTarget, options: RollbackOptions): Promise<RollbackResult> {
  const commits = 'commit' in target ? [await ledger.resolve(target.commit)] : await readRunCommits(ledger, target.run);
  const diffs = await readDiffs(ledger, commits);
  const paths = [...new Set(diffs.flat().map((d) => d.path))];
  const head = await ledger.lookup(paths, undefined, { folders: true });
  const plan = planRollback({
    diffs,
    head,
    allowedRoots: [...normalizeSkillsRoots(options.skillsRoot ?? 'skills'), '.skillgarden'],
    ...(options.allowPath ? { allowPath: options.allowPath } : {}),
  });
  if (plan.kind === 'noop') return { status: 'noop', reverted: commits };
  if (plan.kind === 'refused') throw refused(plan.reason, plan.paths, commits);
  await refuseOrphans(ledger, plan.changes, commits);
  const changes = await buildChanges(ledger, plan.changes);
  const message = await buildRollbackMessage(ledger, commits, target, options);
  const { commit } = await ledger.commit({ message, changes, ...(options.author ? { author: options.author } : {}) });
  const files = plan.changes.filter((c) => !isFolder(c)).map((c) => c.path);
  const moved = changes.filter((c) => c.from !== undefined).map((c) => ({ from: c.from!, to: c.path }));
  return { status: 'reverted', commit, reverted: commits, files, ...(moved.length > 0 ? { moved } : {}) };
}

const isFolder = (c: { before: BlobRef | null; after: BlobRef | null }) => c.before?.mode === folderMode || c.after?.mode === folderMode;

/**
 * The commits' diffs, each folder a commit moved whole (an archive, a restore) as one entry at each end: a
 * 100,000-file archive is undone as one tree rename, with no file listed. When another of the commits touches a
 * moved folder, every diff is read file by file, as before, so the plan sees each file's history.
 */
async function readDiffs(ledger: RollbackLedger, commits: readonly string[]): Promise<FileDiff[][]> {
  const diffs = await Promise.all(commits.map((commit) => ledger.diff(commit, { moves: true })));
  const all = diffs.flat();
  const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`) || folder.startsWith(`${path}/`);
  const overlaps = all.filter(isFolder).some((f) => all.some((d) => d !== f && inside(d.path, f.path)));
  return overlaps ? Promise.all(commits.map((commit) => ledger.diff(commit))) : diffs;
}

/**
 * A folder moved back whole when the revert is exactly that (and nothing else sits in the folder it leaves):
 * one tree rename, no blob read; every other file restored from its blob.
 */
async function buildChanges(ledger: RollbackLedger, all: readonly NetChange[]): Promise<FileChange[]> {
  const back = all.filter((c) => isFolder(c) && c.after === null);
  const left = all.filter((c) => isFolder(c) && c.before === null);
  // The revert puts each folder back (`before`) from where the commit moved it (`after`): paired by tree id.
  const folderMoves = back.map((c): FileChange => {
    const from = left.splice(
      left.findIndex((l) => l.after!.oid === c.before!.oid),
      1,
    )[0]!;
    return { path: c.path, content: null, from: from.path };
  });
  const changes = all.filter((c) => !isFolder(c));
  const move = findFolderMove(changes);
  const whole = move && (await ledger.listFiles(move.from)).length * 2 === move.paths.size;
  const rest = whole ? changes.filter((c) => !move.paths.has(c.path)) : changes;
  const restored = await Promise.all(rest.map((change) => restoreChange(ledger, change)));
  return [...folderMoves, ...(whole ? [{ path: move.to, content: null, from: move.from }] : []), ...restored];
}

async function restoreChange(ledger: RollbackLedger, change: NetChange): Promise<FileChange> {
  const expected = change.after?.oid ?? null;
  if (change.before === null) return { path: change.path, content: null, expected };
  const content = await ledger.readBlob(change.before.oid);
  return { path: change.path, content, executable: change.before.mode === '100755', symlink: change.before.mode === '120000', expected };
}

/** Reverting a create with later commits to the skill would leave its other files without a SKILL.md: refused, naming them. */
async function refuseOrphans(ledger: RollbackLedger, changes: readonly NetChange[], commits: readonly string[]): Promise<void> {
  for (const folder of listRemovedSkills(changes)) {
    if (folder === '') continue;
    const orphans = findOrphans(
      changes,
      (await ledger.listFiles(folder)).map((f) => f.path),
    );
    if (orphans.length === 0) continue;
    // Files the tree before the reverted commits already held are no orphans of this rollback: that tree had them
    // beside no SKILL.md, and it is the tree the rollback restores (even when later commits deleted such a file
    // and put it back). Only files added since are refused.
    const base = (await ledger.readCommit(commits[0]!)).parents[0];
    const before = base === undefined ? new Map<string, BlobRef | undefined>() : await ledger.lookup(orphans, base);
    const added = orphans.filter((path) => before.get(path) === undefined);
    if (added.length === 0) continue;
    const later = await findLaterCommits(ledger, new Set(added), new Set(commits));
    const list = later.map((c) => `${c.oid.slice(0, 12)} "${c.subject}"`).join(', ');
    throw new SkillgardenError(
      'ledger/rollback-refused',
      `Rollback refused, nothing written: it deletes ${folder}/SKILL.md, but later commits added ${added.join(', ')}${list ? ` (${list})` : ''}. Roll back those commits first, or delete the skill whole (\`skillgarden manage delete\`).`,
      { data: { reason: 'orphans', paths: added, commits: [...commits], later: later.map((c) => c.oid) } },
    );
  }
}

/** The commits after the reverted ones (first parents from HEAD, up to 1,000) that touched the paths, oldest first. */
async function findLaterCommits(
  ledger: RollbackLedger,
  paths: ReadonlySet<string>,
  reverted: ReadonlySet<string>,
): Promise<{ oid: string; subject: string }[]> {
  const found: { oid: string; subject: string }[] = [];
  let oid = await ledger.head();
  for (let walked = 0; oid !== undefined && !reverted.has(oid) && walked < 1000; walked++) {
    const info = await ledger.readCommit(oid);
    if ((await ledger.changedFiles(oid)).some((f) => paths.has(f.path)))
      found.push({ oid, subject: parseCommitMessage(info.message).subject });
    oid = info.parents[0];
  }
  return found.reverse();
}

/**
 * Commits carrying `Curator-Run: <run>`, oldest first: every parent is
 * followed, not only the first, so a run merged from its proposal branch by
 * a merge commit is found too; the walk stops at the run's tag (the commit
 * the run started from) or at the root. The order is ancestors first (a
 * depth-first walk that emits a commit after its parents), as the rollback
 * plan replays the run's diffs in order.
 */
async function readRunCommits(ledger: RollbackLedger, run: string): Promise<string[]> {
  const stop = await ledger.resolve(`refs/tags/skillgarden/run/${run}`).catch(() => undefined);
  const found: string[] = [];
  const head = await ledger.head();
  const visited = new Set<string>(stop ? [stop] : []);
  const stack: Array<{ oid: string; parents?: string[]; inRun?: boolean }> = head && head !== stop ? [{ oid: head }] : [];
  if (head) visited.add(head);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.parents === undefined) {
      const info = await ledger.readCommit(top.oid);
      top.inRun = parseCommitMessage(info.message).trailers.run === run;
      top.parents = info.parents.slice().reverse();
    }
    const parent = top.parents.pop();
    if (parent === undefined) {
      stack.pop();
      if (top.inRun) found.push(top.oid);
    } else if (!visited.has(parent)) {
      visited.add(parent);
      stack.push({ oid: parent });
    }
  }
  if (found.length === 0) {
    throw new SkillgardenError(
      'ledger/unknown-run',
      `No commit carries Curator-Run: ${run}. List runs with \`skillgarden log --actor curator\`.`,
      { data: { run } },
    );
  }
  return found;
}

async function buildRollbackMessage(
  ledger: RollbackLedger,
  commits: readonly string[],
  target: RollbackTarget,
  options: RollbackOptions,
): Promise<string> {
  const parsed = await Promise.all(commits.map(async (oid) => parseCommitMessage((await ledger.readCommit(oid)).message)));
  const skills = [...new Set(parsed.flatMap((p) => p.trailers.skills))];
  const what = 'run' in target ? `revert curator run ${target.run}` : `revert "${parsed[0]?.subject ?? commits[0]}"`;
  return buildCommitMessage({
    subject: `skill(rollback): ${skills.length > 0 ? skills.join(', ') : 'files'} — ${what}`.replace(/\s+/g, ' ').slice(0, 200),
    body: commits.map((oid) => `This reverts commit ${oid}.`).join('\n'),
    trailers: { action: 'rollback', skills, actor: options.actor ?? 'user', reverts: [...commits] },
  });
}

function refused(reason: string, paths: readonly string[], commits: readonly string[]): SkillgardenError {
  const why: Record<string, string> = {
    'changed-since': 'changed after the commit being reverted; revert those changes first or edit the files by hand',
    'changed-between': 'were changed by other commits in between; roll back the later commits first',
    'outside-skills-root': 'lie outside the skills root and .skillgarden/, which rollback never touches; use git revert',
  };
  return new SkillgardenError(
    'ledger/rollback-refused',
    `Rollback refused, nothing written: ${paths.join(', ')} ${why[reason] ?? reason}.`,
    {
      data: { reason, paths: [...paths], commits: [...commits] },
    },
  );
}
