import { botBranchPrefix } from './repo-ops.js';

export type ProposalKind = 'lifecycle' | 'umbrella' | 'new';

/**
 * A bot branch for a proposal. A skill's name comes from a file anyone can
 * edit, so it is reduced to characters git accepts in any ref component
 * (see `git check-ref-format`): no `..`, `@{`, control characters, spaces,
 * `~^:?*[\`, leading dots or a `.lock` ending.
 */
export function buildBranchName(kind: ProposalKind, name = ''): string {
  if (kind === 'lifecycle') return `${botBranchPrefix}lifecycle`;
  const safe =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/\.{2,}/g, '.')
      .replace(/-{2,}/g, '-')
      .replace(/^[.-]+|[.-]+$/g, '')
      .replace(/\.lock$/, '-lock')
      .slice(0, 80)
      .replace(/[.-]+$/g, '') || 'unnamed';
  return `${botBranchPrefix}${kind}/${safe}`;
}
