import { Ajv2020 } from 'ajv/dist/2020.js';
import stateSchema from '../../../schemas/state.schema.json' with { type: 'json' };
import { finding, type Finding } from '../findings.js';
import type { SkillStateRecord } from '../lifecycle/types.js';

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

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** Parses state.json; a corrupt file is an error finding (the run stops rather than forget stale marks). */
export function parseState(text: string, file: string): { state: CuratorState; findings: Finding[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { state: emptyState(), findings: [stateError(file, `not JSON: ${(error as Error).message}`)] };
  }
  // Formats are annotations here: times are checked where they are used (normalizeTime).
  validate ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(stateSchema);
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
