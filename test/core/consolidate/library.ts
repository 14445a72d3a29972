import type { CuratedSkill } from '../../../src/core/consolidate/types.js';

/** A curated (agent-made) skill for tests: frontmatter from `fields`, then `body`. */
export function curated(
  name: string,
  body: string,
  options: { description?: string; extra?: string; files?: CuratedSkill['files']; category?: string } & Partial<
    Pick<CuratedSkill, 'pinned' | 'provenance' | 'adopted' | 'protected'>
  > = {},
): CuratedSkill {
  const description = options.description ?? `Deploy notes for ${name}. Use when deploying the web service to servers.`;
  return {
    name,
    dir: options.category ? `skills/${options.category}/${name}` : `skills/${name}`,
    ...(options.category ? { category: options.category } : {}),
    text: `---\nname: ${name}\ndescription: ${description}\n${options.extra ?? ''}---\n${body}`,
    files: options.files ?? [],
    provenance: options.provenance ?? 'agent',
    pinned: options.pinned ?? false,
    ...(options.adopted !== undefined ? { adopted: options.adopted } : {}),
    ...(options.protected !== undefined ? { protected: options.protected } : {}),
  };
}

/** Three narrow deploy notes an agent might have written in three sessions. */
export function deployFamily(): CuratedSkill[] {
  return [
    curated(
      'deploy-staging',
      '# Deploy to staging\n\nRun the deploy script against the staging servers of the web service.\n\nCheck the [api notes](references/api.md).\n',
      {
        extra: 'allowed-tools: Bash Read\n',
        files: [{ path: 'references/api.md', content: '# Staging API\n\nThe staging deploy API takes a release id.\n' }],
      },
    ),
    curated(
      'deploy-production',
      '# Deploy to production\n\nRun the deploy script against the production servers of the web service after approval.\n\n## Rollback\n\nRun the rollback script to deploy the previous release.\n',
      {
        extra: 'allowed-tools: Bash Grep\n',
        files: [
          { path: 'references/api.md', content: '# Production API\n\nThe production deploy API needs a second approval.\n' },
          { path: 'scripts/rollback.sh', content: new Uint8Array([35, 33, 47, 98, 105, 110, 47, 115, 104, 10, 0, 255]) },
        ],
      },
    ),
    curated(
      'deploy-canary',
      '# Canary deploy\n\nDeploy the web service to the canary servers first and watch the error rate of the release.\n',
    ),
  ];
}

export const now = new Date('2026-11-30T00:00:00Z');

/** The text of a planned write, failing loudly when the plan does not write it. */
export function written(changes: readonly { path: string; content: Uint8Array | string | null }[], path: string): string {
  const change = changes.find((c) => c.path === path);
  if (!change || change.content === null)
    throw new Error(`the plan does not write ${path}; it writes ${changes.map((c) => c.path).join(', ')}`);
  return typeof change.content === 'string' ? change.content : new TextDecoder().decode(change.content);
}
