import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunReport } from '../core/report/run-report.js';

/** run.json and REPORT.md in `dir`, each written atomically (temp file + rename); returns REPORT.md's path. */
export function writeRunReport(dir: string, report: RunReport, markdown: string): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of [
    ['run.json', `${JSON.stringify(report, null, 2)}\n`],
    ['REPORT.md', markdown],
  ] as const) {
    const temp = join(dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temp, content);
    renameSync(temp, join(dir, name));
  }
  return join(dir, 'REPORT.md');
}
