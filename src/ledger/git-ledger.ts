import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { SkillgardenError } from '../core/errors.js';
import type { CommitContext } from './commit-context.js';
import { diffTrees, listTree, type DiffOptions } from './diff-trees.js';
import type { FileDiff } from './diff-trees.js';
import type {
  BranchCommitRequest,
  BranchCommitResult,
  BranchTip,
  ChangedFile,
  CommitBatch,
  CommitInfo,
  CommitOptions,
  CommitResult,
  FileMode,
  Ledger,
  LedgerBackend,
  LedgerFile,
  RollbackOptions,
  RollbackResult,
  RollbackTarget,
} from './ledger.js';
import { lockRef, isOid, isValidRefName, readHeadState, readRef } from './refs.js';
import { readSubtree } from './read-tree-paths.js';
import { rollback } from './rollback.js';
import { lookupPaths } from './tree-edit.js';
import type { BlobRef } from './tree-edit.js';
import { beginBatch } from './write-batch.js';
import { writeCommit } from './write-commit.js';
import { deleteBranch, listBranches, writeBranchCommit } from './write-branch.js';

/** The `Ledger` both backends share: they differ only in their `ObjectStore`. */
export class GitLedger implements Ledger {
  constructor(
    readonly backend: LedgerBackend,
    private readonly ctx: CommitContext,
  ) {}

  get dir(): string {
    return this.ctx.dir;
  }

  async head(): Promise<string | undefined> {
    const state = await readHeadState(this.ctx.layout);
    return state.kind === 'detached' ? state.oid : readRef(this.ctx.layout, state.ref);
  }

  async resolve(ref: string): Promise<string> {
    let oid = ref === 'HEAD' ? await this.head() : await this.resolveName(ref);
    // An annotated tag names a tag object, which names the commit (possibly through another tag).
    for (let depth = 0; oid !== undefined && depth < 5; depth += 1) {
      const found = await this.ctx.store.readCommit(oid).then(
        () => true,
        () => false,
      );
      if (found) return oid;
      oid = await this.ctx.store.peelTag(oid);
    }
    throw new SkillgardenError(
      'ledger/unknown-ref',
      `"${ref.slice(0, 100)}" names no commit in ${this.ctx.dir}. Give a commit id, a branch or a tag.`,
      {
        data: { ref },
      },
    );
  }

  private async resolveName(ref: string): Promise<string | undefined> {
    if (isOid(ref)) return ref;
    for (const name of [ref, `refs/${ref}`, `refs/tags/${ref}`, `refs/heads/${ref}`, `refs/remotes/${ref}`]) {
      if (!isValidRefName(name)) continue;
      const oid = await readRef(this.ctx.layout, name);
      if (oid !== undefined) return oid;
    }
    if (!/^[0-9a-f]{4,39}$/.test(ref)) return undefined;
    return git.expandOid({ fs, gitdir: this.ctx.layout.commondir, oid: ref }).catch(() => undefined);
  }

  async readFile(path: string, commit?: string): Promise<Uint8Array | undefined> {
    const blob = (await this.lookup([path], commit)).get(path);
    return blob === undefined ? undefined : this.ctx.store.readBlob(blob.oid);
  }

  async listFiles(prefix: string, commit?: string): Promise<LedgerFile[]> {
    const folder = prefix.replace(/\/+$/, '');
    const tree = await readSubtree(this.ctx.store, await this.treeOf(commit), folder);
    const files = await listTree(this.ctx.store, tree, folder === '' ? '' : `${folder}/`);
    return files.map((f) => ({ path: f.path, oid: f.oid, mode: f.mode as FileMode }));
  }

  readCommit(commit: string): Promise<CommitInfo> {
    return this.ctx.store.readCommit(commit);
  }

  async changedFiles(commit: string): Promise<ChangedFile[]> {
    return (await this.diff(commit)).map((d) => ({ path: d.path, before: d.before?.oid ?? null, after: d.after?.oid ?? null }));
  }

  /** Like `changedFiles`, with file modes. */
  async diff(commit: string, options: DiffOptions = {}): Promise<FileDiff[]> {
    const info = await this.ctx.store.readCommit(await this.resolve(commit));
    const parent = info.parents[0] === undefined ? undefined : (await this.ctx.store.readCommit(info.parents[0])).tree;
    return diffTrees(this.ctx.store, parent, info.tree, '', options);
  }

  async lookup(paths: readonly string[], commit?: string, options: { folders?: boolean } = {}): Promise<Map<string, BlobRef | undefined>> {
    return lookupPaths(this.ctx.store, await this.treeOf(commit), paths, options);
  }

  readBlob(oid: string): Promise<Uint8Array> {
    return this.ctx.store.readBlob(oid);
  }

  commit(options: CommitOptions): Promise<CommitResult> {
    return writeCommit(this.ctx, options);
  }

  beginBatch(): CommitBatch {
    return beginBatch(this.ctx);
  }

  async commitOnBranch(options: BranchCommitRequest): Promise<BranchCommitResult> {
    const base = await this.resolve(options.base ?? 'HEAD');
    const { branch, message, changes, author } = options;
    return writeBranchCommit(this.ctx, {
      branch,
      base,
      message,
      changes,
      ...(author ? { author } : {}),
      ...optionalTip(options.expectedTip),
    });
  }

  listBranches(prefix: string): Promise<BranchTip[]> {
    return listBranches(this.ctx, prefix);
  }

  deleteBranch(branch: string, expectedTip?: string): Promise<boolean> {
    return deleteBranch(this.ctx, branch, expectedTip);
  }

  async tag(name: string, commit?: string): Promise<string> {
    const ref = `refs/tags/${name}`;
    if (!isValidRefName(ref)) {
      throw new SkillgardenError('ledger/bad-ref-name', `"${name.slice(0, 100)}" is not a valid tag name (see git check-ref-format).`, {
        data: { name },
      });
    }
    const target = await this.resolve(commit ?? 'HEAD');
    const lock = await lockRef(this.ctx.layout, ref, { timeoutMs: this.ctx.lockTimeoutMs });
    try {
      const existing = await readRef(this.ctx.layout, ref);
      if (existing === target) return target;
      if (existing !== undefined) {
        throw new SkillgardenError('ledger/tag-exists', `Tag ${name} already points at ${existing}; tags are not moved.`, {
          data: { name, oid: existing },
        });
      }
      await lock.commit(`${target}\n`);
      return target;
    } finally {
      await lock.release();
    }
  }

  rollback(target: RollbackTarget, options: RollbackOptions = {}): Promise<RollbackResult> {
    return rollback(this, target, options);
  }

  async close(): Promise<void> {
    await this.ctx.writer.close();
    await this.ctx.store.close();
  }

  private async treeOf(commit: string | undefined): Promise<string | undefined> {
    const oid = commit === undefined ? await this.head() : await this.resolve(commit);
    return oid === undefined ? undefined : (await this.ctx.store.readCommit(oid)).tree;
  }
}

function optionalTip(expectedTip: string | null | undefined): { expectedTip?: string | null } {
  return expectedTip === undefined ? {} : { expectedTip };
}
