import { describe, expect, it } from 'vitest';
import { planConsolidation } from '../../../src/core/consolidate/index.js';
import { buildUmbrellaBranchProposal } from '../../../src/services/proposals/build.js';
import { renderProposalBody } from '../../../src/services/proposals/body.js';
import { curated, now } from '../../core/consolidate/library.js';

function umbrellaBody(): string {
  const copy = '# Deploy to staging\n\nRun `make deploy ENV=staging` and watch the health check.\n';
  const skills = [
    curated('deploy-staging', copy, { extra: 'license: MIT\n' }),
    curated('deploy-prod', '# Deploy to prod\n\nRun `make deploy ENV=prod`; use `deploy-staging` first.\n', { extra: 'license: MIT\n' }),
    curated('deploy-rollback', '# Roll back\n\nRun `make rollback` when the health check fails.\n', { extra: 'license: MIT\n' }),
  ];
  const [plan] = planConsolidation({ skills, now }).plans;
  if (!plan) throw new Error('no plan');
  return renderProposalBody({ proposal: buildUmbrellaBranchProposal(plan, 'run-1'), runId: 'run-1' });
}

describe('an umbrella pull request body', () => {
  const body = umbrellaBody();

  it('shows the resulting frontmatter with its description, and what each member contributes', () => {
    expect(body).toMatch(/#### The result\n\n`skills\/deploy\/SKILL\.md` begins:\n\n```yaml\n---\nname: deploy\ndescription: /);
    expect(body).toContain('license: MIT');
    for (const name of ['deploy-staging', 'deploy-prod', 'deploy-rollback'])
      expect(body).toMatch(new RegExp(`- \`${name}\`: a section of the umbrella with its whole body; archived whole at`));
  });

  it('says how to undo after merging, and never that there is nothing to undo', () => {
    expect(body).toContain('`skillgarden rollback <merge-commit>`');
    expect(body).not.toContain('Nothing to undo');
  });

  it('has one structured YAML block and no escaped backticks', () => {
    expect(body.match(/^consolidations:/gm)).toHaveLength(1);
    expect(body).not.toContain('\\`');
  });
});
