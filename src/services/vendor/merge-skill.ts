import { SkillgardenError } from '../../core/errors.js';
import { skillFileName } from '../../core/layout.js';
import { computeDigest, planFileMerge, type PinnedEntry } from '../../core/vendor/index.js';
import type { FileChange } from '../../ledger/ledger.js';
import type { ManageContext, ManageResult } from '../manage/context.js';
import type { WrittenProposal } from '../proposals/index.js';
import { mergeText, readUpstreamFiles, type Upstream, type UpstreamFile } from './upstream.js';
import { checkVendored, readVendoredFolder, type VendoredCheck } from './vendored-skill.js';

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
  /** Skills whose merge conflicts: proposed on `skillgarden/update/<name>`, the branch left as it was. */
  proposed: (WrittenProposal & { conflicts: Conflict[] })[];
}

export interface Conflict {
  file: string;
  reason: string;
}

export interface Planned {
  status: SkillStatus;
  /** The lock entry once the update is in: the new commit and digest. */
  entry: PinnedEntry;
  /** The skill's changes; with conflicts, the merge with git's conflict markers (a proposal for a person, never the branch). */
  changes: FileChange[];
  /** Files both sides changed the same way git cannot merge: empty when the update merges cleanly. */
  conflicts: Conflict[];
  check: VendoredCheck;
}

/**
 * One skill's update merged three ways and checked. A file both sides changed in the same lines is merged with its
 * conflict markers, and one git cannot merge line by line (binary, deleted on one side) takes the upstream side; both
 * are named in `conflicts`, so the plan can only be proposed. A conflicted SKILL.md is scanned, not validated (its
 * markers would fail the frontmatter); the person resolving it validates the result.
 */
export async function planUpdate(ctx: ManageContext, upstream: Upstream, status: SkillStatus, entry: PinnedEntry): Promise<Planned> {
  const theirs = await readVendoredFolder(upstream, status.to, status.name, entry.skillPath);
  const ours = new Map<string, Uint8Array>();
  for (const file of await ctx.ledger.listFiles(status.dir)) {
    ours.set(file.path.slice(status.dir.length + 1), (await ctx.ledger.readFile(file.path)) ?? new Uint8Array());
  }
  const base = status.gone ? pinnedFromLibrary(status, entry, ours) : await readUpstreamFiles(upstream, entry.commit, entry.skillPath);
  const byPath = (files: UpstreamFile[]) => new Map(files.map((f) => [f.path, f]));
  const [baseFiles, theirFiles] = [byPath(base), byPath(theirs.files)];
  const changes: FileChange[] = [];
  const conflicts: Conflict[] = [];
  const pending = new Map<string, Uint8Array | null>();
  for (const path of [...new Set([...baseFiles.keys(), ...ours.keys(), ...theirFiles.keys()])].sort()) {
    const file = `${status.dir}/${path}`;
    const sides = { base: baseFiles.get(path)?.bytes, ours: ours.get(path), theirs: theirFiles.get(path)?.bytes };
    const decision = planFileMerge(sides);
    let bytes: Uint8Array | null;
    if (decision.kind === 'keep') continue;
    else if (decision.kind === 'conflict') {
      conflicts.push({ file, reason: `${decision.reason} (the proposal takes the upstream side)` });
      bytes = sides.theirs ?? null;
    } else if (decision.kind === 'delete') bytes = null;
    else if (decision.kind === 'take') bytes = decision.bytes;
    else {
      // Added on both sides with different content: merged against an empty base, so every differing line conflicts.
      const merged = await mergeText(upstream, { ours: sides.ours!, base: sides.base ?? new Uint8Array(), theirs: sides.theirs! });
      if (merged.conflictLines.length > 0)
        conflicts.push({ file, reason: `both changed the same lines (conflict at line ${merged.conflictLines.join(', ')} of the merge)` });
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
  const after = [...new Set([...ours.keys(), ...pending.keys()])].filter((p) => pending.get(p) !== null);
  const skillMd = ours.get(skillFileName);
  const check = await checkVendored(ctx, {
    name: status.name,
    dir: status.dir,
    pending,
    ...(skillMd ? { before: Buffer.from(skillMd).toString('utf8') } : {}),
    after,
    validate: conflicts.length === 0,
  });
  return { status, entry: { ...entry, commit: status.to, computedHash: theirs.digest }, changes, conflicts, check };
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
