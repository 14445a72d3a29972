import type { ValidateFunction } from 'ajv/dist/2020.js';
import { finding, type Finding } from '../findings.js';
import type { SkillStateRecord } from '../lifecycle/types.js';
import { state as generatedValidate, stateRecord as generatedRecordValidate } from './state-validator.generated.js';

/**
 * What the curator remembers between runs. On disk (version 2): the run-wide fields in `.skillgarden/state.json`,
 * each skill's record in `.skillgarden/state/<file name of the skill>.json` (state-files.ts), so a commit that changes
 * one skill carries that skill's record alone. Version 1 kept every record in `state.json` under `skills`: still read,
 * and the first write moves it to version 2.
 */
export interface CuratorState {
  /** 1: read from the one-file layout (the next write migrates it); 2: the per-skill layout. */
  version: 1 | 2;
  last_run_at?: string;
  last_run_id?: string;
  skills: Record<string, SkillStateRecord>;
  rejected_proposals: string[];
}

/** The run-wide fields: what `.skillgarden/state.json` holds from version 2 on. */
export type RunState = Omit<CuratorState, 'skills'>;

export function emptyState(): CuratorState {
  return { version: 2, skills: {}, rejected_proposals: [] };
}

/** ajv's standalone code for schemas/state.schema.json (scripts/generate-validators.ts): no ajv compile per process. */
const validate = generatedValidate as unknown as ValidateFunction;
const validateRecord = generatedRecordValidate as unknown as ValidateFunction;

/**
 * Parses `.skillgarden/state.json`, either version; a corrupt file is an error finding (the run stops rather than
 * forget stale marks). Version 1's records come back in `skills`; version 2's file has none (they are read apart).
 */
export function parseState(text: string, file: string): { state: CuratorState; findings: Finding[] } {
  const parsed = parseJson(text, file, validate);
  if ('findings' in parsed) return { state: emptyState(), findings: parsed.findings };
  const state = parsed.data as Partial<CuratorState> & { version: 1 | 2 };
  return {
    state: { ...emptyState(), ...state, skills: { ...state.skills }, rejected_proposals: [...(state.rejected_proposals ?? [])] },
    findings: [],
  };
}

/** Parses one skill's record file (`.skillgarden/state/<skill>.json`). */
export function parseRecord(text: string, file: string): { record: SkillStateRecord; findings: Finding[] } {
  const parsed = parseJson(text, file, validateRecord);
  return 'findings' in parsed ? { record: {}, findings: parsed.findings } : { record: parsed.data as SkillStateRecord, findings: [] };
}

/** `.skillgarden/state.json` as version 2 writes it: the run-wide fields in one order, two-space indent, final newline. */
export function serializeState(state: RunState): string {
  const out = {
    version: 2,
    ...(state.last_run_at !== undefined ? { last_run_at: state.last_run_at } : {}),
    ...(state.last_run_id !== undefined ? { last_run_id: state.last_run_id } : {}),
    rejected_proposals: [...new Set(state.rejected_proposals)].sort(),
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** One skill's record file: its fields in one order (`state`, `since`, `seeded_at`), two-space indent, final newline. */
export function serializeRecord(record: SkillStateRecord): string {
  const { state, since, seeded_at, ...rest } = record;
  return `${JSON.stringify({ ...(state ? { state } : {}), ...(since ? { since } : {}), ...(seeded_at ? { seeded_at } : {}), ...rest }, null, 2)}\n`;
}

function parseJson(text: string, file: string, check: ValidateFunction): { data: unknown } | { findings: Finding[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text, (error as Error).message);
    const where = at ? ` at line ${at.line}, column ${at.column}` : '';
    return { findings: [{ ...stateError(file, `not JSON${where}: ${(error as Error).message}`), ...at }] };
  }
  if (!check(data)) {
    const detail = (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    return { findings: [stateError(file, `does not match schemas/state.schema.json: ${detail}`)] };
  }
  return { data };
}

function stateError(file: string, message: string): Finding {
  return finding({
    code: 'state/invalid',
    severity: 'error',
    file,
    message,
    hint: `Fix or remove the file (its history is in Git: \`git log -p -- ${file}\`).`,
  });
}

/** The line and column (1-based) of a JSON.parse error, from the character position its message names (Node 20 names no line). */
export function locateJsonError(text: string, message: string): { line: number; column: number } | undefined {
  const named = /at position (\d+)/.exec(message)?.[1];
  // A file cut short (a crash, a full disk) ends before its JSON does: the error is where the text stops.
  const position = named !== undefined ? Number(named) : /end of JSON input/i.test(message) ? text.length : undefined;
  if (position === undefined) return undefined;
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return { line, column: position - before.lastIndexOf('\n') };
}
