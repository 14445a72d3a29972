import { posix } from 'node:path';
import { finding, type Finding } from '../findings.js';
import type { Rule } from './types.js';

export const maxSupportFileBytes = 1024 * 1024;

export const supportFileSize: Rule = {
  id: 'skill/support-file-too-large',
  check(context) {
    const findings: Finding[] = [];
    for (const entry of context.files?.values() ?? []) {
      if (entry.path === 'SKILL.md' || entry.size <= maxSupportFileBytes) continue;
      findings.push(
        finding({
          code: 'skill/support-file-too-large',
          severity: 'error',
          file: posix.join(posix.dirname(context.skill.file), entry.path),
          message: `${entry.path} is ${(entry.size / 1024 / 1024).toFixed(1)} MiB; support files are limited to 1 MiB`,
          hint: 'Keep large data out of the skill: link to it, or generate it with a script in scripts/.',
        }),
      );
    }
    return findings;
  },
};
