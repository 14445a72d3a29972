import { excerpt, finding } from '../findings.js';
import { stringField } from '../skill/types.js';
import { codePointLength, type ProfileName, type Rule, type RuleContext } from './types.js';

export const maxNameLength = 64;
export const specNamePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Hermes Agent also accepts dots and underscores between the parts. */
export const hermesNamePattern = /^[a-z0-9]+([._-][a-z0-9]+)*$/;

function namePosition(context: RuleContext) {
  return context.skill.locateValue(['name']) ?? { line: 1, column: 1 };
}

export const nameFormat: Rule = {
  id: 'skill/name-format',
  check(context) {
    const name = stringField(context.skill, 'name');
    if (name === undefined || name === '') return [];
    const strict = specNamePattern.test(name);
    const lenient = hermesNamePattern.test(name);
    if (strict || (lenient && context.profile === 'hermes')) return [];
    const severity = lenient && context.profile === 'portable' ? 'warning' : 'error';
    return [
      finding({
        code: 'skill/name-format',
        severity,
        file: context.skill.file,
        ...namePosition(context),
        message: `name "${excerpt(name)}" is not lowercase letters, digits and single hyphens${profileNote(context.profile)}`,
        hint: `Use a kebab-case name such as "${suggestName(name) || 'my-skill'}", and rename the folder to match.`,
      }),
    ];
  },
};

export const nameLength: Rule = {
  id: 'skill/name-too-long',
  check(context) {
    const name = stringField(context.skill, 'name');
    if (name === undefined || codePointLength(name) <= maxNameLength) return [];
    return [
      finding({
        code: 'skill/name-too-long',
        severity: 'error',
        file: context.skill.file,
        ...namePosition(context),
        message: `name is ${codePointLength(name)} characters; the limit is ${maxNameLength}`,
        hint: 'Shorten the name to the class of task it covers; put detail in the description.',
      }),
    ];
  },
};

export const nameMatchesFolder: Rule = {
  id: 'skill/name-mismatch',
  check(context) {
    const name = stringField(context.skill, 'name');
    if (name === undefined || name === '' || name === context.folder) return [];
    return [
      finding({
        code: 'skill/name-mismatch',
        severity: 'error',
        file: context.skill.file,
        ...namePosition(context),
        message: `name "${excerpt(name)}" differs from its folder "${excerpt(context.folder)}"`,
        hint: (context.profile === 'hermes' ? hermesNamePattern : specNamePattern).test(name)
          ? `Set \`name: ${context.folder}\` or rename the folder to "${name}": one canonical name everywhere.`
          : `Set \`name: ${context.folder}\`: "${excerpt(name)}" is no name for a folder (lowercase letters, digits and hyphens).`,
      }),
    ];
  },
};

function profileNote(profile: ProfileName): string {
  return profile === 'hermes' ? ' (Hermes also allows "." and "_" between parts)' : '';
}

/** A kebab-case rendering of a name, offered in hints. */
export function suggestName(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxNameLength)
    .replace(/-+$/, '');
}
