import { createHash } from 'node:crypto';

/** Every proposal branch lives under this prefix (DESIGN §10). */
export const proposalPrefix = 'skillgarden/';

export type ProposalKind = 'lifecycle' | 'umbrella' | 'new' | 'describe' | 'staged' | 'update';

/** The kinds proposed as a reviewed branch: the curator's, and a vendored skill's update (a staged write comes from an agent). */
export type CuratorProposalKind = Exclude<ProposalKind, 'staged'>;

/**
 * A proposal's branch. A skill's name comes from a file anyone can edit, so it
 * is reduced to characters git accepts in any ref component (see
 * `git check-ref-format`): no `..`, `@{`, control characters, spaces,
 * `~^:?*[\`, leading dots or a `.lock` ending.
 */
export function buildProposalBranch(kind: ProposalKind, name = ''): string {
  if (kind === 'lifecycle') return `${proposalPrefix}lifecycle`;
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
  return `${proposalPrefix}${kind}/${safe}`;
}

/**
 * The kind and name a proposal branch stands for, or undefined for another branch. The Action's `branch-suffix`
 * appends `@<base>` (`skillgarden/lifecycle@main`); names never hold `@`, so the suffix is cut off.
 */
export function parseProposalBranch(branch: string): { kind: ProposalKind; name: string } | undefined {
  if (branch === `${proposalPrefix}lifecycle` || branch.startsWith(`${proposalPrefix}lifecycle@`))
    return { kind: 'lifecycle', name: 'lifecycle' };
  const match = /^(umbrella|new|describe|staged|update)\/([^@]+)(?:@.+)?$/.exec(
    branch.startsWith(proposalPrefix) ? branch.slice(proposalPrefix.length) : '',
  );
  return match ? { kind: match[1] as ProposalKind, name: match[2] as string } : undefined;
}

/** What a proposal decides, as a short stable id: the same decisions give the same fingerprint. */
export function buildProposalFingerprint(kind: ProposalKind, decisions: readonly string[]): string {
  const canonical = JSON.stringify({ kind, decisions: [...decisions].sort() });
  return createHash('sha256').update(canonical).digest('hex').slice(0, 20);
}
