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
    return { state: emptyState(), findings: [stateError(file, `not JSON: ${(error as Error).message}`)] };
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
