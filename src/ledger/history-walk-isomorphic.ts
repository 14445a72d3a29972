import * as fs from 'node:fs';
import git, { type TreeEntry } from 'isomorphic-git';
import type { CommitRecord, HistoryCommit, PathChange } from '../core/ledger/commit-record.js';
import type { HistoryWalker, WalkRange } from './history-walker.js';
import { isHistoryPath, isSkillFile } from '../core/ledger/skill-paths.js';

interface WalkContext {
  gitdir: string;
  cache: object;
  /** Recently read trees: a commit's "after" is the next commit's "before". Bounded. */
  trees: Map<string, TreeEntry[]>;
  /** Commit oid → its tree and record, for the commits of this walk. */
  commits: Map<string, { record: CommitRecord; tree: string }>;
}

const treeMemoSize = 512;

// Every object read costs isomorphic-git a loose-object probe before the pack: read each tree once.
async function readEntries(ctx: WalkContext, oid: string | null): Promise<TreeEntry[]> {
  if (oid === null) return [];
  const known = ctx.trees.get(oid);
  if (known) return known;
  const entries = (await git.readTree({ fs, gitdir: ctx.gitdir, oid, cache: ctx.cache })).tree;
  if (ctx.trees.size >= treeMemoSize) ctx.trees.clear();
  ctx.trees.set(oid, entries);
  return entries;
}

async function listFiles(ctx: WalkContext, oid: string, prefix: string, status: PathChange['status']): Promise<PathChange[]> {
  return diffTrees(ctx, status === 'added' ? null : oid, status === 'added' ? oid : null, prefix);
}

function join(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}/${name}`;
}

function fileChange(status: 'added' | 'deleted', path: string, entry: TreeEntry): PathChange {
  return isSkillFile(path) ? { status, path, blob: entry.oid } : { status, path };
}

/** Files changed from tree `before` to `after`; subtrees with equal oids are skipped unread. */
async function diffTrees(ctx: WalkContext, before: string | null, after: string | null, prefix: string): Promise<PathChange[]> {
  if (before === after) return [];
  const [old, now] = await Promise.all([readEntries(ctx, before), readEntries(ctx, after)]);
  const byName = new Map<string, [TreeEntry | undefined, TreeEntry | undefined]>();
  for (const e of old) byName.set(e.path, [e, undefined]);
  for (const e of now) byName.set(e.path, [byName.get(e.path)?.[0], e]);
  const changes: PathChange[] = [];
  for (const [name, [a, b]] of byName) {
    const path = join(prefix, name);
    if (a?.type === 'tree' && b?.type === 'tree') for (const item of await diffTrees(ctx, a.oid, b.oid, path)) changes.push(item);
    else if (a?.type !== 'tree' && b?.type !== 'tree' && a && b) {
      if (a.oid !== b.oid || a.mode !== b.mode) changes.push({ status: 'modified', path });
    } else {
      // Added, deleted, or a file turned into a folder (or back): old side out, new side in.
      if (a)
        for (const item of a.type === 'tree' ? await listFiles(ctx, a.oid, path, 'deleted') : [fileChange('deleted', path, a)])
          changes.push(item);
      if (b)
        for (const item of b.type === 'tree' ? await listFiles(ctx, b.oid, path, 'added') : [fileChange('added', path, b)])
          changes.push(item);
    }
  }
  return changes;
}

async function readCommitTree(ctx: WalkContext, oid: string): Promise<{ record: CommitRecord; tree: string }> {
  const known = ctx.commits.get(oid);
  if (known) return known;
  const { commit } = await git.readCommit({ fs, gitdir: ctx.gitdir, oid, cache: ctx.cache });
  const read = { record: { oid, parents: commit.parent, time: commit.committer.timestamp, message: commit.message }, tree: commit.tree };
  ctx.commits.set(oid, read);
  return read;
}

/** Commits from the head back to what was seen (or the excluded commit), breadth first. */
async function collectCommits(ctx: WalkContext, range: WalkRange): Promise<Array<{ record: CommitRecord; tree: string }>> {
  const found: Array<{ record: CommitRecord; tree: string }> = [];
  const visited = new Set<string>();
  const queue = [range.head];
  while (queue.length > 0) {
    const oid = queue.pop() as string;
    if (visited.has(oid) || range.seen.has(oid) || oid === range.exclude) continue;
    visited.add(oid);
    const commit = await readCommitTree(ctx, oid);
    if (range.shallow.has(oid)) commit.record.parents = []; // as git shows a shallow clone's cut
    found.push(commit);
    for (const item of commit.record.parents) queue.push(item);
  }
  return found;
}

/** isomorphic-git: slower, but needs no git binary. Equal subtrees are never read. */
export function isomorphicGitWalker(gitdir: string): HistoryWalker {
  const ctx: WalkContext = { gitdir, cache: {}, trees: new Map(), commits: new Map() };
  return {
    async resolveHead(ref) {
      try {
        const oid = await git.resolveRef({ fs, gitdir, ref });
        return (await git.readCommit({ fs, gitdir, oid, cache: ctx.cache })).oid;
      } catch {
        return null; // an unborn branch or a ref that does not exist
      }
    },
    async readCommits(range) {
      const commits: HistoryCommit[] = [];
      for (const { record, tree } of await collectCommits(ctx, range)) {
        const parent = record.parents[0];
        const parentTree = parent === undefined ? null : (await readCommitTree(ctx, parent)).tree;
        // The whole tree, not the skills root alone: a SKILL.md moved in from outside keeps its creation.
        const changes = (await diffTrees(ctx, parentTree, tree, '')).filter((c) => isHistoryPath(c.path, range.skillsRoot));
        commits.push(range.shallow.has(record.oid) ? { ...record, changes, boundary: true } : { ...record, changes });
      }
      return commits;
    },
    async readLog(head, limit) {
      const entries = await git.log({ fs, gitdir, ref: head, cache: ctx.cache, ...(limit === undefined ? {} : { depth: limit }) });
      return entries.map(({ oid, commit }) => ({ oid, parents: commit.parent, time: commit.committer.timestamp, message: commit.message }));
    },
    async readCommitRecords(oids) {
      const records: CommitRecord[] = [];
      for (const oid of oids) records.push((await readCommitTree(ctx, oid)).record);
      return records;
    },
    async listFiles(commit, roots) {
      const files = await diffTrees(ctx, null, (await readCommitTree(ctx, commit)).tree, '');
      return files.map((f) => f.path).filter((path) => roots.some((root) => root === '' || path.startsWith(`${root}/`)));
    },
    async readBlobs(oids) {
      const texts = new Map<string, string>();
      for (const oid of oids) {
        const read = await git.readBlob({ fs, gitdir, oid, cache: ctx.cache }).catch(() => null);
        if (read) texts.set(oid, Buffer.from(read.blob).toString('utf8'));
      }
      return texts;
    },
  };
}
