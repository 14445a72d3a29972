import { posix } from 'node:path';
import { excerpt, finding, type Finding } from '../findings.js';
import { extractLinks } from './markdown-links.js';
import type { Rule, RuleContext } from './types.js';

export type LinkKind = 'external' | 'anchor' | 'template' | 'escapes' | 'relative';

/** Classifies a link target and, for a relative one, resolves it inside the skill folder. */
export function resolveLinkTarget(target: string): { kind: LinkKind; path?: string } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return { kind: 'external' };
  if (target.startsWith('#') || target === '') return { kind: 'anchor' };
  if (/[${}]/.test(target)) return { kind: 'template' };
  if (target.startsWith('/') || target.startsWith('~') || target.startsWith('\\')) return { kind: 'escapes' };
  const bare = target.replace(/[?#].*$/, '');
  let decoded = bare;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    /* a stray % is read literally */
  }
  const path = posix.normalize(decoded.replace(/\\/g, '/'));
  if (path === '..' || path.startsWith('../')) return { kind: 'escapes', path };
  return { kind: 'relative', path: path.replace(/\/$/, '') };
}

export const linksStayInside: Rule = {
  id: 'skill/link',
  check(context) {
    const findings: Finding[] = [];
    const offset = context.skill.sections.bodyLine - 1;
    for (const link of extractLinks(context.skill.body)) {
      const resolved = resolveLinkTarget(link.target);
      const where = { file: context.skill.file, line: link.line + offset, column: link.column };
      const target = resolved.kind === 'escapes' && resolved.path ? inRepository(context.library, resolved.path) : undefined;
      if (target !== undefined) {
        const found = outsideLink(context.library, target, link.target);
        if (found) findings.push(finding({ ...found, ...where }));
      } else if (resolved.kind === 'escapes') {
        findings.push(
          finding({
            code: 'skill/link-escapes',
            severity: 'error',
            ...where,
            message: `link "${excerpt(link.target)}" points outside the ${context.library?.scope === 'library' ? 'repository' : 'skill folder'}`,
            hint:
              context.library?.scope === 'library'
                ? 'Nothing outside the repository travels with the skill: copy the file into the skill (references/ or assets/) and link to it relatively.'
                : 'A skill travels as one folder: copy the file into references/ (or assets/) and link to it relatively; or set `links: library` to allow links to other skills and files of the repository.',
          }),
        );
      } else if (resolved.kind === 'relative' && resolved.path && !exists(context, resolved.path)) {
        findings.push(
          finding({
            code: 'skill/link-missing',
            severity: 'warning',
            ...where,
            message: `link "${excerpt(link.target)}" points at a file that is not in the skill`,
            hint: `Create ${resolved.path} inside the skill folder or fix the link.`,
          }),
        );
      }
    }
    return findings;
  },
};

/**
 * A `../` link that stays in the repository: fine to another skill, a warning
 * to a file no skill holds (it works here, but `publish` ships each skill
 * folder alone), a warning when nothing is there.
 */
function outsideLink(library: RuleContext['library'], path: string, written: string) {
  if (library?.exists?.(path) === false)
    return {
      code: 'skill/link-missing',
      severity: 'warning' as const,
      message: `link "${excerpt(written)}" points at ${path}, which is not in the repository`,
      hint: 'Fix the link, or add the skill or file it names.',
    };
  if (library?.inSkill?.(path) !== false) return undefined;
  return {
    code: 'skill/link-outside-skills',
    severity: 'warning' as const,
    message: `link "${excerpt(written)}" points at ${path}, a file of the repository that no skill holds`,
    hint: 'The link works where the repository is checked out (a project skill); `publish` ships the skill folder alone, without this file. Leave it if the skill is used in this repository.',
  };
}

/**
 * A `../` link read from the skill's place in its repository: the path
 * relative to the repository when links may reach it and it stays inside it.
 */
function inRepository(library: RuleContext['library'], path: string): string | undefined {
  if (library?.scope !== 'library') return undefined;
  const joined = posix.normalize(`${library.skillDir}/${path}`);
  return joined === '..' || joined.startsWith('../') || joined.startsWith('/') ? undefined : joined.replace(/\/$/, '');
}

function exists(context: RuleContext, path: string): boolean {
  const files = context.files;
  if (files === undefined || path === '.' || path === '') return true;
  if (files.has(path)) return true;
  const folder = `${path}/`;
  for (const key of files.keys()) if (key.startsWith(folder)) return true;
  return false;
}
