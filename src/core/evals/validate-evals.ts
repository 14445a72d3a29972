import { LineCounter, parseDocument, type Node } from 'yaml';
import { finding, type Finding } from '../findings.js';

/** Where the Agent Skills evaluation guide keeps a skill's test cases. */
export const evalsFile = 'evals/evals.json';

export interface EvalsInput {
  /** Path as reported in findings. */
  file: string;
  text: string;
  /** The skill folder's name: `skill_name`, when given, should match it. */
  folder: string;
  /** Files of the skill (relative to its folder), to check each case's `files` exist. */
  skillFiles: ReadonlySet<string>;
}

const shapeHint = 'Write {"skill_name": "<folder>", "evals": [{"id": 1, "prompt": "…", "expected_output": "…", "assertions": ["…"]}]}.';
type Path = (string | number)[];

/**
 * Checks `evals/evals.json` against the Agent Skills evaluation format:
 * `{ "skill_name"?, "evals": [{ "id", "prompt", "expected_output"?, "files"?, "assertions"? }] }`.
 * Values come from JSON.parse; positions from the YAML parser (JSON is YAML), so each finding points at its case.
 */
export function validateEvals(input: EvalsInput): Finding[] {
  const lines = new LineCounter();
  const doc = parseDocument(input.text, { lineCounter: lines });
  const out: Finding[] = [];
  const add = (code: string, severity: Finding['severity'], path: Path, message: string, hint: string) => {
    const node = (path.length === 0 ? doc.contents : doc.getIn(path, true)) as Node | null | undefined;
    const pos = node?.range ? lines.linePos(node.range[0]) : { line: 1, col: 1 };
    out.push(finding({ code, severity, file: input.file, line: pos.line, column: pos.col, message, hint }));
  };
  let data: unknown;
  try {
    data = JSON.parse(input.text);
  } catch (error) {
    const pos = doc.errors[0] ? lines.linePos(doc.errors[0].pos[0]) : { line: 1, col: 1 };
    const message = `not valid JSON: ${(error as Error).message}`;
    const hint = 'Fix the syntax; the file must be plain JSON (no comments, no trailing commas).';
    return [finding({ code: 'evals/json-syntax', severity: 'error', file: input.file, line: pos.line, column: pos.col, message, hint })];
  }
  if (!isRecord(data)) {
    add('evals/not-an-object', 'error', [], 'valid JSON, but not the evals format: the top level must be an object', shapeHint);
    return out;
  }
  if ('skill_name' in data && data.skill_name !== input.folder) {
    const message = `skill_name ${JSON.stringify(data.skill_name)} differs from the skill's folder "${input.folder}"`;
    add('evals/skill-name-mismatch', 'warning', ['skill_name'], message, `Set "skill_name": "${input.folder}".`);
  }
  if (!Array.isArray(data.evals)) {
    add('evals/no-cases', 'error', 'evals' in data ? ['evals'] : [], '"evals" must be a list of test cases', shapeHint);
    return out;
  }
  const ids = new Map<string, number>();
  data.evals.forEach((item: unknown, index: number) => checkCase(item, index, ids, input, add));
  return out;
}

function checkCase(
  item: unknown,
  index: number,
  ids: Map<string, number>,
  input: EvalsInput,
  add: (code: string, severity: Finding['severity'], path: Path, message: string, hint: string) => void,
): void {
  const at: Path = ['evals', index];
  if (!isRecord(item)) {
    add('evals/bad-case', 'error', at, `evals[${index}] is not an object`, shapeHint);
    return;
  }
  if (typeof item.id !== 'number' && typeof item.id !== 'string') {
    add('evals/bad-case', 'error', at, `evals[${index}] needs an "id" (a number or a string)`, 'Give each case a unique id.');
  } else if (ids.has(String(item.id))) {
    const message = `evals[${index}] repeats id ${String(item.id)} of evals[${ids.get(String(item.id))}]`;
    add('evals/duplicate-id', 'error', [...at, 'id'], message, 'Give each case a unique id.');
  } else ids.set(String(item.id), index);
  if (typeof item.prompt !== 'string' || item.prompt.trim() === '') {
    add('evals/bad-case', 'error', at, `evals[${index}] needs a non-empty "prompt"`, 'The prompt is the request the agent receives.');
  }
  if ('expected_output' in item && typeof item.expected_output !== 'string') {
    add(
      'evals/bad-case',
      'error',
      [...at, 'expected_output'],
      `evals[${index}].expected_output must be a string`,
      'Describe what success looks like.',
    );
  }
  for (const key of ['assertions', 'expectations', 'files'] as const) {
    if (!(key in item)) continue;
    const list = item[key];
    if (!Array.isArray(list) || list.some((x) => typeof x !== 'string')) {
      add('evals/bad-case', 'error', [...at, key], `evals[${index}].${key} must be a list of strings`, `Write "${key}": ["…"].`);
      continue;
    }
    if (key !== 'files') continue;
    (list as string[]).forEach((path, i) => {
      const relative = path.replace(/^\.\//, '');
      if (input.skillFiles.has(relative) || input.skillFiles.has(`evals/${relative}`)) return;
      const message = `evals[${index}] names "${path}", which is not a file of the skill`;
      add(
        'evals/file-missing',
        'error',
        [...at, key, i],
        message,
        'Add the file, or fix its path (relative to the skill folder or to evals/).',
      );
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
