import type { Finding } from '../findings.js';
import { supportFileSize } from './file-rules.js';
import { pathsCompile } from './glob-rules.js';
import { linksStayInside } from './link-rules.js';
import { nameFormat, nameLength, nameMatchesFolder } from './name-rules.js';
import {
  bodyLength,
  compatibilityLength,
  descriptionAngleBrackets,
  descriptionLength,
  descriptionNotEmpty,
  fileSize,
} from './text-rules.js';
import type { Rule, RuleContext } from './types.js';

/** Every rule no schema can say, in the order their findings read best. */
export const rules: readonly Rule[] = [
  nameFormat,
  nameLength,
  nameMatchesFolder,
  descriptionNotEmpty,
  descriptionLength,
  descriptionAngleBrackets,
  compatibilityLength,
  pathsCompile,
  linksStayInside,
  fileSize,
  bodyLength,
  supportFileSize,
];

/** Runs every rule; a rule that throws is a bug, reported as a finding rather than crashing validation. */
export function checkRules(context: RuleContext, selected: readonly Rule[] = rules): Finding[] {
  return selected.flatMap((rule) => {
    try {
      return rule.check(context);
    } catch (error) {
      return [
        {
          code: 'internal/rule-failed',
          severity: 'error' as const,
          file: context.skill.file,
          line: 0,
          column: 0,
          message: `rule ${rule.id} failed: ${error instanceof Error ? error.message : String(error)}`,
          hint: 'This is a skillgarden bug; please report it with the file.',
        },
      ];
    }
  });
}

export type { ProfileName, Rule, RuleContext, SkillFileEntry } from './types.js';
export { codePointLength } from './types.js';
export { specNamePattern, hermesNamePattern, maxNameLength, suggestName } from './name-rules.js';
export { maxDescriptionLength, maxSkillCharacters, maxBodyLines } from './text-rules.js';
export { maxSupportFileBytes } from './file-rules.js';
export { resolveLinkTarget } from './link-rules.js';
export { extractLinks, type MarkdownLink } from './markdown-links.js';
export { globError } from './glob-rules.js';
