import { finding } from '../findings.js';
import { stringField } from '../skill/types.js';
import { codePointLength, type Rule } from './types.js';
import { formatCount } from '../format-count.js';

export const maxDescriptionLength = 1024;
export const maxCompatibilityLength = 500;
export const maxSkillCharacters = 100_000;
export const maxBodyLines = 500;

function lengthRule(field: string, max: number, code: string, hint: string): Rule {
  return {
    id: code,
    check(context) {
      const value = stringField(context.skill, field);
      if (value === undefined) return [];
      const length = codePointLength(value);
      if (length <= max) return [];
      return [
        finding({
          code,
          severity: 'error',
          file: context.skill.file,
          ...(context.skill.locateValue([field]) ?? { line: 1, column: 1 }),
          message: `${field} is ${length} characters; the limit is ${max}`,
          hint,
        }),
      ];
    },
  };
}

export const descriptionLength = lengthRule(
  'description',
  maxDescriptionLength,
  'skill/description-too-long',
  'Keep the description to what the skill does and when to use it; move detail into the body or references/.',
);

export const compatibilityLength = lengthRule(
  'compatibility',
  maxCompatibilityLength,
  'skill/compatibility-too-long',
  'State only the environment requirements (tools, network, OS) in one or two sentences.',
);

export const descriptionNotEmpty: Rule = {
  id: 'skill/description-empty',
  check(context) {
    const value = stringField(context.skill, 'description');
    // An empty string is the schema's `minLength` finding; this catches the blank ones it lets through.
    if (value === undefined || value === '' || value.trim() !== '') return [];
    return [
      finding({
        code: 'skill/description-empty',
        severity: 'error',
        file: context.skill.file,
        ...(context.skill.locateValue(['description']) ?? { line: 1, column: 1 }),
        message: 'description is empty',
        hint: 'Say what the skill does and when an agent should use it: the description is how it is found.',
      }),
    ];
  },
};

export const descriptionAngleBrackets: Rule = {
  id: 'skill/description-angle-brackets',
  check(context) {
    const value = stringField(context.skill, 'description');
    if (value === undefined || !/[<>]/.test(value)) return [];
    return [
      finding({
        code: 'skill/description-angle-brackets',
        severity: 'warning',
        file: context.skill.file,
        ...(context.skill.locateValue(['description']) ?? { line: 1, column: 1 }),
        message: 'description contains "<" or ">", which some clients strip or read as markup',
        hint: 'Write the words out ("less than", "-> becomes") or drop the angle brackets.',
      }),
    ];
  },
};

export const fileSize: Rule = {
  id: 'skill/too-large',
  check(context) {
    const length = context.skill.text.length;
    if (length <= maxSkillCharacters) return [];
    return [
      finding({
        code: 'skill/too-large',
        severity: 'error',
        file: context.skill.file,
        line: 1,
        column: 1,
        message: `SKILL.md is ${formatCount(length)} characters; the limit is ${formatCount(maxSkillCharacters)}`,
        hint: 'Move detail into references/*.md and link to it from SKILL.md (progressive disclosure).',
      }),
    ];
  },
};

export const bodyLength: Rule = {
  id: 'skill/body-too-long',
  check(context) {
    const lines = countBodyLines(context.skill.body);
    if (lines <= maxBodyLines) return [];
    return [
      finding({
        code: 'skill/body-too-long',
        severity: 'warning',
        file: context.skill.file,
        line: context.skill.sections.bodyLine + maxBodyLines,
        column: 1,
        message: `the body is ${lines} lines; keep SKILL.md under ${maxBodyLines}`,
        hint: 'Split detailed sections into references/<topic>.md and link to them.',
      }),
    ];
  },
};

function countBodyLines(body: string): number {
  if (body === '') return 0;
  let lines = 1;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) lines++;
  return body.endsWith('\n') ? lines - 1 : lines;
}
