import type { SkillStateRecord } from '../lifecycle/types.js';
import { recordPath, stateFile, stateRecordDir } from './state-files.js';
import { serializeRecord, serializeState, type CuratorState } from './state.js';

/** One file of the state written or deleted (`content: null`). */
export interface StateFileChange {
  path: string;
  content: string | null;
}

/**
 * The state files that take the tree from `before` (as read) to `after`: the records that differ, and `state.json`
 * when a run-wide field does. From version 1 (`before.version === 1`) it is the migration: `state.json` rewritten
 * without its records, every record of `after` in its own file, and any record file already in the tree (`present`:
 * repository paths) that `after` has no record for deleted, since version 1 did not read them.
 */
export function stateChanges(before: CuratorState, after: CuratorState, present: readonly string[] = []): StateFileChange[] {
  const changes: StateFileChange[] = [];
  const runText = serializeState(after);
  if (before.version === 1 || serializeState(before) !== runText) changes.push({ path: stateFile, content: runText });
  const names = [...new Set([...Object.keys(before.skills), ...Object.keys(after.skills)])].sort();
  for (const name of names) {
    const change = recordChange(before.version === 1 ? undefined : before.skills[name], after.skills[name], name);
    if (change) changes.push(change);
  }
  if (before.version === 1) {
    const kept = new Set(Object.keys(after.skills).map(recordPath));
    for (const path of present) if (path.startsWith(`${stateRecordDir}/`) && !kept.has(path)) changes.push({ path, content: null });
  }
  return changes;
}

/** The write that takes one skill's record from `before` to `after`; undefined when its file stays as it is. */
export function recordChange(
  before: SkillStateRecord | undefined,
  after: SkillStateRecord | undefined,
  name: string,
): StateFileChange | undefined {
  const text = after === undefined ? null : serializeRecord(after);
  const was = before === undefined ? null : serializeRecord(before);
  return text === was ? undefined : { path: recordPath(name), content: text };
}
