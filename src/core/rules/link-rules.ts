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
      const sibling = resolved.kind === 'escapes' && resolved.path ? inLibrary(context.library, resolved.path) : undefined;
      if (sibling !== undefined) {
        if (context.library?.exists?.(sibling) === false) {
          findings.push(
            finding({
              code: 'skill/link-missing',
              severity: 'warning',
              ...where,
              message: `link "${excerpt(link.target)}" points at ${sibling}, which is not in the library`,
              hint: 'Fix the link, or add the skill or file it names.',
            }),
          );
        }
      } else if (resolved.kind === 'escapes') {
        findings.push(
          finding({
            code: 'skill/link-escapes',
            severity: 'error',
            ...where,
            message: `link "${excerpt(link.target)}" points outside the skill folder`,
            hint:
              context.library?.scope === 'library'
                ? 'The link leaves the library: copy the file into the skill (references/ or assets/) and link to it relatively.'
                : 'A skill travels as one folder: copy the file into references/ (or assets/) and link to it relatively; or set `links: library` to allow links to other skills.',
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
 * A `../` link read from the skill's place in its library: the path relative
 * to the skill root when links may reach the library and it stays inside it.
 */
function inLibrary(library: RuleContext['library'], path: string): string | undefined {
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
