import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { finding, type Finding } from '../core/findings.js';
import { evalsFile, validateEvals } from '../core/evals/validate-evals.js';
import type { SkillFileEntry } from '../core/rules/index.js';

/** Largest evals file read: test cases are prose, not data sets. */
const maxEvalsBytes = 1024 * 1024;

/** Findings for the skill's `evals/evals.json` when it has one (the Agent Skills evaluation format); none otherwise. */
export function checkEvalsFile(dir: string, folder: string, files: ReadonlyMap<string, SkillFileEntry>, reportPath: string): Finding[] {
  const entry = files.get(evalsFile);
  if (!entry) return [];
  if (entry.size > maxEvalsBytes) {
    return [
      finding({
        code: 'evals/too-large',
        severity: 'error',
        file: reportPath,
        message: `${entry.size} bytes, over the ${maxEvalsBytes} read for evals`,
        hint: 'Keep evals.json to test cases; put fixtures in files the cases name.',
      }),
    ];
  }
  let text: string;
  try {
    text = readFileSync(join(dir, evalsFile), 'utf8');
  } catch (error) {
    return [
      finding({
        code: 'evals/unreadable',
        severity: 'error',
        file: reportPath,
        message: `cannot read: ${(error as Error).message}`,
        hint: 'Check the file is readable.',
      }),
    ];
  }
  return validateEvals({ file: reportPath, text, folder, skillFiles: new Set(files.keys()) });
}
