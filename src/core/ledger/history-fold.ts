import { formatCommitTime, type HistoryCommit, type PathChange } from './commit-record.js';
import type { CreationEvent, HistoryIndex, LedgerEvent, SkillHistory } from './history-index.js';
import { candidateFolders, isSkillFile, locateSkillFile, relativeToRoot, type SkillFolder } from './skill-paths.js';
import { parseCommitMessage, type Actor, type LedgerTrailers, type SkillAction, type Source } from './trailers.js';

// The line `git revert` writes.
const revertLine = /^This reverts commit [0-9a-f]{40,64}\b/m;

const patchActions: ReadonlySet<SkillAction> = new Set(['patch', 'edit', 'write-file', 'remove-file', 'merge']);

interface FoldState {
  roots: readonly string[];
  skills: Map<string, SkillHistory>;
  /** Folder → skill name, to find the skill a support file belongs to. */
  owners: Map<string, string>;
  deleted: Map<string, SkillHistory>;
  outside: Map<string, CreationEvent>;
}

interface CommitContext {
  commit: HistoryCommit;
  trailers: LedgerTrailers;
  event: LedgerEvent;
  /** Skills created, moved or deleted by this commit: their file changes are not patches. */
  structural: Set<string>;
  /** A rollback, or a plain `git revert`: what it re-adds comes back, not into being. */
  revert: boolean;
  /** SKILL.md blobs this commit removes somewhere, with the creation (and history) of what held them: a move's source. */
  leaving: Map<string, { created: CreationEvent; skill?: SkillHistory }>;
  /** Skills whose files this commit changed (by path), for `log --skill`. */
  touched: Set<string>;
}

type LocatedFile = SkillFolder & { blob?: string; renamedFrom?: string };

interface SkillFileGroup {
  added: LocatedFile[];
  removed: LocatedFile[];
}

function groupSkillFiles(changes: readonly PathChange[], roots: readonly string[]): Map<string, SkillFileGroup> {
  const groups = new Map<string, SkillFileGroup>();
  for (const change of changes) {
    if (change.status === 'modified') continue;
    const located = locateSkillFile(change.path, roots);
    if (located === null) continue;
    const group = groups.get(located.name) ?? { added: [], removed: [] };
    groups.set(located.name, group);
    const file: LocatedFile = { ...located, ...(change.blob === undefined ? {} : { blob: change.blob }) };
    if (change.renamedFrom !== undefined) file.renamedFrom = change.renamedFrom;
    (change.status === 'added' ? group.added : group.removed).push(file);
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

/** What this commit brings into being, as a creation: who made it, unless a shallow cut hides that. */
function creationOf(ctx: CommitContext): CreationEvent {
  // At a shallow cut the commit did not create what it shows: nothing is known, so nothing is claimed.
  const { actor, source, action } = ctx.commit.boundary ? { actor: 'user' as const, source: undefined, action: undefined } : ctx.trailers;
  return { ...ctx.event, actor, source: source ?? null, action: action ?? null };
}

function createSkill(state: FoldState, ctx: CommitContext, at: LocatedFile): void {
  // The same SKILL.md leaving another folder in this commit (or, edited, the one it continues): a move or
  // rename, created when it first appeared.
  const source = at.blob !== undefined && ctx.leaving.has(at.blob) ? at.blob : at.renamedFrom;
  const origin = source === undefined ? undefined : ctx.leaving.get(source);
  if (origin?.skill) {
    const before = origin.skill;
    const renamedFrom = before.name === at.name ? before.renamedFrom : [...(before.renamedFrom ?? []), before.name];
    state.skills.set(at.name, {
      ...structuredClone(before),
      name: at.name,
      folder: at.folder,
      archived: at.archived,
      ...(renamedFrom === undefined ? {} : { renamedFrom }),
    });
    state.owners.set(at.folder, at.name);
    return;
  }
  const created = origin?.created ?? creationOf(ctx);
  state.skills.set(at.name, {
    name: at.name,
    folder: at.folder,
    archived: at.archived,
    created,
    adopted: null,
    provenance: isMachineMade(created.actor, created.source ?? undefined) ? 'agent' : 'user',
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

/** The SKILL.md blobs a commit removes (in the root or outside it), with the creation of what held them. */
function collectLeaving(state: FoldState, ctx: CommitContext): void {
  for (const change of ctx.commit.changes) {
    if (change.status !== 'deleted' || change.blob === undefined) continue;
    const located = locateSkillFile(change.path, state.roots);
    const owner = located === null ? undefined : state.skills.get(state.owners.get(located.folder) ?? '');
    const created = located === null ? state.outside.get(change.path) : owner?.created;
    if (created === undefined || ctx.leaving.has(change.blob)) continue;
    ctx.leaving.set(change.blob, owner === undefined ? { created } : { created, skill: owner });
  }
}

/** SKILL.md files outside the root: kept by path from when they appeared (or arrived from elsewhere). */
function foldOutsideFiles(state: FoldState, ctx: CommitContext): void {
  for (const change of ctx.commit.changes) {
    if (relativeToRoot(change.path, state.roots) !== null || !isSkillFile(change.path)) continue;
    ctx.touched.add(folderName(change.path));
    if (change.status === 'deleted') state.outside.delete(change.path);
    else if (change.status === 'added') {
      const came = [change.blob, change.renamedFrom].find((blob) => blob !== undefined && ctx.leaving.has(blob));
      state.outside.set(change.path, (came === undefined ? undefined : ctx.leaving.get(came)?.created) ?? creationOf(ctx));
    }
  }
}

/** `pdf` for `document-skills/pdf/SKILL.md`: the name a SKILL.md outside the root would have. */
function folderName(path: string): string {
  const parts = path.split('/');
  return parts.at(-2) ?? '';
}

/** SKILL.md files appearing and disappearing: creations, moves (archive, restore, recategorize), deletions. */
function foldSkillFiles(state: FoldState, ctx: CommitContext): void {
  for (const [name, { added, removed }] of groupSkillFiles(ctx.commit.changes, state.roots)) {
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
  for (const folder of candidateFolders(path, state.roots)) {
    const owner = state.owners.get(folder);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

/** A merge's diff repeats its branch's commits, which were folded already. */
function foldContentChanges(state: FoldState, ctx: CommitContext): void {
  for (const change of ctx.commit.changes) {
    const name = ownerOf(state, change.path);
    if (name !== undefined) ctx.touched.add(name);
  }
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

/** Told, for each commit folded, the skills whose files it changed (following moves), by path alone. */
export type TouchObserver = (commit: HistoryCommit, skills: ReadonlySet<string>) => void;

/**
 * Folds commits, ordered parents first (`orderParentsFirst`), into the index of `head`. Pure: the
 * input index is not changed. Folding A then B equals folding A and B at once: the cache's increments.
 */
export function foldHistory(
  index: HistoryIndex,
  commits: readonly HistoryCommit[],
  head: string | null,
  observe?: TouchObserver,
): HistoryIndex {
  const { skills: current, deleted, outside } = structuredClone({ skills: index.skills, deleted: index.deleted, outside: index.outside });
  const skills = new Map(Object.entries(current));
  const owners = new Map([...skills.values()].map((s) => [s.folder, s.name]));
  const state: FoldState = {
    roots: index.skillsRoots,
    skills,
    owners,
    deleted: new Map(Object.entries(deleted)),
    outside: new Map(Object.entries(outside)),
  };
  for (const commit of commits) {
    const trailers = parseCommitMessage(commit.message).trailers;
    const ctx: CommitContext = {
      commit,
      trailers,
      event: { commit: commit.oid, time: formatCommitTime(commit.time) },
      structural: new Set(),
      revert: trailers.action === 'rollback' || trailers.reverts.length > 0 || revertLine.test(commit.message),
      leaving: new Map(),
      touched: new Set(),
    };
    collectLeaving(state, ctx);
    foldSkillFiles(state, ctx);
    foldContentChanges(state, ctx);
    foldOutsideFiles(state, ctx);
    foldTrailerEvents(state, ctx);
    if (observe) {
      for (const name of ctx.structural) ctx.touched.add(name);
      observe(commit, ctx.touched);
    }
  }
  return {
    version: 1,
    skillsRoots: index.skillsRoots,
    head,
    commits: index.commits + commits.length,
    shallow: index.shallow || commits.some((c) => c.boundary === true),
    skills: sortedRecord(skills),
    deleted: sortedRecord(state.deleted),
    outside: Object.fromEntries([...state.outside.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}
