import { createHash } from 'node:crypto';

/**
 * What `branch-suffix` appends to every proposal branch: nothing, the base
 * branch's name (`base`), or a literal. Joined with `@`, which a slugged skill
 * name never holds, so `skillgarden/umbrella/deploy@main` cannot be another
 * skill's branch. A base name git or a URL would mangle is slugged, with a
 * short hash of the real name so `release/1.x` and `release-1.x` stay apart.
 */
export function resolveBranchSuffix(setting: string, baseBranch: string): string {
  if (setting === '') return '';
  if (setting !== 'base') return `@${setting}`;
  const slug = baseBranch
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/\.lock$/, '-lock')
    .slice(0, 40);
  if (slug === baseBranch && slug !== '') return `@${slug}`;
  const hash = createHash('sha256').update(baseBranch).digest('hex').slice(0, 6);
  return `@${slug || 'base'}-${hash}`;
}
