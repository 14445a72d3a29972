import { formatCommitTime, type HistoryCommit, type PathChange } from './commit-record.js';
import type { HistoryIndex, LedgerEvent, SkillHistory } from './history-index.js';
import { candidateFolders, locateSkillFile, type SkillFolder } from './skill-paths.js';
import { parseCommitMessage, type Actor, type LedgerTrailers, type SkillAction, type Source } from './trailers.js';

// The line `git revert` writes.
const revertLine = /^This reverts commit [0-9a-f]{40,64}\b/m;

const patchActions: ReadonlySet<SkillAction> = new Set(['patch', 'edit', 'write-file', 'remove-file', 'merge']);

interface FoldState {
  root: string;
  skills: Map<string, SkillHistory>;
  /** Folder → skill name, to find the skill a support file belongs to. */
  owners: Map<string, string>;
  deleted: Map<string, SkillHistory>;
}

interface CommitContext {
  commit: HistoryCommit;
  trailers: LedgerTrailers;
  event: LedgerEvent;
  /** Skills created, moved or deleted by this commit: their file changes are not patches. */
  structural: Set<string>;
  /** A rollback, or a plain `git revert`: what it re-adds comes back, not into being. */
  revert: boolean;
}

interface SkillFileGroup {
  added: SkillFolder[];
  removed: SkillFolder[];
}

function groupSkillFiles(changes: readonly PathChange[], root: string): Map<string, SkillFileGroup> {
  const groups = new Map<string, SkillFileGroup>();
  for (const change of changes) {
    if (change.status === 'modified') continue;
    const located = locateSkillFile(change.path, root);
    if (located === null) continue;
    const group = groups.get(located.name) ?? { added: [], removed: [] };
    groups.set(located.name, group);
    (change.status === 'added' ? group.added : group.removed).push(located);
  }
  return groups;
}

/**
 * DESIGN §4 names the agent's own background writes; a skill the curator made (an umbrella, a drafted
 * pattern a person merged) is machine-made too, and would otherwise never be curated again.
 */
function isMachineMade(actor: Actor, source: Source | undefined): boolean {
  return (actor === 'agent' && source === 'background') || actor === 'curator';
}

function createSkill(state: FoldState, ctx: CommitContext, at: SkillFolder): void {
  // At a shallow cut the commit did not create what it shows: nothing is known, so nothing is claimed.
  const { actor, source, action } = ctx.commit.boundary ? { actor: 'user' as const, source: undefined, action: undefined } : ctx.trailers;
  state.skills.set(at.name, {
    name: at.name,
    folder: at.folder,
    archived: at.archived,
    created: { ...ctx.event, actor, source: source ?? null, action: action ?? null },
    adopted: null,
    provenance: isMachineMade(actor, source) ? 'agent' : 'user',
    lastPatched: null,
    lastArchived: null,
    lastRestored: null,
    pin: null,
  });
  state.owners.set(at.folder, at.name);
}

function reviveSkill(state: FoldState, before: SkillHistory, at: SkillFolder): void {
  state.skills.set(before.name, { ...before, folder: at.folder, archived: at.archived });
  state.owners.set(at.folder, before.name);
}

function moveSkill(state: FoldState, ctx: CommitContext, skill: SkillHistory, to: SkillFolder): void {
  if (to.archived && !skill.archived) skill.lastArchived = ctx.event;
  if (!to.archived && skill.archived) skill.lastRestored = ctx.event;
  state.owners.delete(skill.folder);
  state.owners.set(to.folder, skill.name);
  skill.folder = to.folder;
  skill.archived = to.archived;
}

/** SKILL.md files appearing and disappearing: creations, moves (archive, restore, recategorize), deletions. */
function foldSkillFiles(state: FoldState, ctx: CommitContext): void {
  for (const [name, { added, removed }] of groupSkillFiles(ctx.commit.changes, state.root)) {
    const existing = state.skills.get(name);
    if (existing && removed.some((f) => f.folder === existing.folder)) {
      const target = added.find((f) => f.folder !== existing.folder) ?? added[0];
      if (target) moveSkill(state, ctx, existing, target);
      else {
        state.skills.delete(name);
        state.owners.delete(existing.folder);
        state.deleted.set(name, existing);
      }
      ctx.structural.add(name);
    } else if (!existing && added[0]) {
      const before = ctx.revert ? state.deleted.get(name) : undefined;
      if (before) reviveSkill(state, before, added[0]);
      else createSkill(state, ctx, added[0]);
      state.deleted.delete(name);
      ctx.structural.add(name);
    }
    // Anything else (a second folder with a known name, a merge re-adding a file) changes nothing.
  }
}

function ownerOf(state: FoldState, path: string): string | undefined {
  for (const folder of candidateFolders(path, state.root)) {
    const owner = state.owners.get(folder);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

/** A merge's diff repeats its branch's commits, which were folded already. */
function foldContentChanges(state: FoldState, ctx: CommitContext): void {
  const action = ctx.trailers.action;
  const isPatch = action === undefined ? ctx.commit.parents.length <= 1 : patchActions.has(action);
  if (!isPatch) return;
  for (const change of ctx.commit.changes) {
    const name = ownerOf(state, change.path);
    if (name === undefined || ctx.structural.has(name)) continue;
    const skill = state.skills.get(name);
    if (skill) skill.lastPatched = ctx.event;
  }
}

function foldTrailerEvents(state: FoldState, ctx: CommitContext): void {
  const { action, skills } = ctx.trailers;
  for (const name of skills) {
    const skill = state.skills.get(name);
    if (!skill) continue;
    if (action === 'adopt') {
      skill.adopted = ctx.event;
      skill.provenance = 'agent';
    } else if (action === 'pin' || action === 'unpin') {
      skill.pin = { ...ctx.event, pinned: action === 'pin' };
    }
  }
}

function sortedRecord(map: ReadonlyMap<string, SkillHistory>): Record<string, SkillHistory> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Folds commits, ordered parents first (`orderParentsFirst`), into the index of `head`. Pure: the
 * input index is not changed. Folding A then B equals folding A and B at once: the cache's increments.
 */
export function foldHistory(index: HistoryIndex, commits: readonly HistoryCommit[], head: string | null): HistoryIndex {
  const { skills: current, deleted } = structuredClone({ skills: index.skills, deleted: index.deleted });
  const skills = new Map(Object.entries(current));
  const owners = new Map([...skills.values()].map((s) => [s.folder, s.name]));
  const state: FoldState = { root: index.skillsRoot, skills, owners, deleted: new Map(Object.entries(deleted)) };
  for (const commit of commits) {
    const trailers = parseCommitMessage(commit.message).trailers;
    const ctx: CommitContext = {
      commit,
      trailers,
      event: { commit: commit.oid, time: formatCommitTime(commit.time) },
      structural: new Set(),
      revert: trailers.action === 'rollback' || trailers.reverts.length > 0 || revertLine.test(commit.message),
    };
    foldSkillFiles(state, ctx);
    foldContentChanges(state, ctx);
    foldTrailerEvents(state, ctx);
  }
  return {
    version: 1,
    skillsRoot: index.skillsRoot,
    head,
    commits: index.commits + commits.length,
    shallow: index.shallow || commits.some((c) => c.boundary === true),
    skills: sortedRecord(skills),
    deleted: sortedRecord(state.deleted),
  };
}
