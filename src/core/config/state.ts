import type { ValidateFunction } from 'ajv/dist/2020.js';
import { finding, type Finding } from '../findings.js';
import type { SkillStateRecord } from '../lifecycle/types.js';
import { state as generatedValidate } from './state-validator.generated.js';

/** `.skillgarden/state.json`: what the curator remembers between runs. */
export interface CuratorState {
  version: 1;
  last_run_at?: string;
  last_run_id?: string;
  skills: Record<string, SkillStateRecord>;
  rejected_proposals: string[];
}

export function emptyState(): CuratorState {
  return { version: 1, skills: {}, rejected_proposals: [] };
}

/** ajv's standalone code for schemas/state.schema.json (scripts/generate-validators.ts): no ajv compile per process. */
const validate = generatedValidate as unknown as ValidateFunction;

/** Parses state.json; a corrupt file is an error finding (the run stops rather than forget stale marks). */
export function parseState(text: string, file: string): { state: CuratorState; findings: Finding[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const at = locateJsonError(text, (error as Error).message);
    const where = at ? ` at line ${at.line}, column ${at.column}` : '';
    return { state: emptyState(), findings: [{ ...stateError(file, `not JSON${where}: ${(error as Error).message}`), ...at }] };
  }
  if (!validate(data)) {
    const detail = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    return { state: emptyState(), findings: [stateError(file, `does not match schemas/state.schema.json: ${detail}`)] };
  }
  const state = data as Partial<CuratorState>;
  return {
    state: { ...emptyState(), ...state, skills: { ...state.skills }, rejected_proposals: [...(state.rejected_proposals ?? [])] },
    findings: [],
  };
}

/** Stable, diff-friendly JSON: sorted skill names, two-space indent, final newline. */
export function serializeState(state: CuratorState): string {
  const skills = Object.fromEntries(Object.entries(state.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
  const out: CuratorState = { ...state, skills, rejected_proposals: [...new Set(state.rejected_proposals)].sort() };
  return `${JSON.stringify(out, null, 2)}\n`;
}

function stateError(file: string, message: string): Finding {
  return finding({
    code: 'state/invalid',
    severity: 'error',
    file,
    message,
    hint: 'Fix or remove the file (its history is in Git: `git log -p -- .skillgarden/state.json`).',
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
