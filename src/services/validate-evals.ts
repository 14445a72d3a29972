import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { finding, type Finding } from '../core/findings.js';
import { triggerQueriesFile } from '../core/evals/types.js';
import { evalsFile, validateEvals } from '../core/evals/validate-evals.js';
import { validateTriggerQueries } from '../core/evals/validate-trigger-queries.js';
import type { SkillFileEntry } from '../core/rules/index.js';

/** Largest evals file read: test cases are prose, not data sets. */
const maxEvalsBytes = 1024 * 1024;

/**
 * Findings for the skill's evaluation files when it has them, none otherwise: `evals/evals.json` (the Agent Skills
 * evaluation format) and `evals/trigger-queries.json` (the trigger eval set of "Optimizing skill descriptions").
 * `reportPath` names evals.json as the report shows it; the trigger set is named beside it.
 */
export function checkEvalsFile(dir: string, folder: string, files: ReadonlyMap<string, SkillFileEntry>, reportPath: string): Finding[] {
  const queriesPath = posix.join(posix.dirname(reportPath), posix.basename(triggerQueriesFile));
  return [
    ...checkOne(dir, files, evalsFile, reportPath, (text) =>
      validateEvals({ file: reportPath, text, folder, skillFiles: new Set(files.keys()) }),
    ),
    ...checkOne(dir, files, triggerQueriesFile, queriesPath, (text) => validateTriggerQueries(queriesPath, text)),
  ];
}

function checkOne(
  dir: string,
  files: ReadonlyMap<string, SkillFileEntry>,
  path: string,
  reportPath: string,
  check: (text: string) => Finding[],
): Finding[] {
  const entry = files.get(path);
  if (!entry) return [];
  if (entry.size > maxEvalsBytes) {
    return [
      finding({
        code: 'evals/too-large',
        severity: 'error',
        file: reportPath,
        message: `${entry.size} bytes, over the ${maxEvalsBytes} read for evals`,
        hint: 'Keep eval files to test cases and queries; put fixtures in files the cases name.',
      }),
    ];
  }
  let text: string;
  try {
    text = readFileSync(join(dir, path), 'utf8');
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
  return check(text);
}
