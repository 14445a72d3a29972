import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildUmbrellaDescription } from '../../../src/core/consolidate/description.js';
import { planConsolidation } from '../../../src/core/consolidate/index.js';
import { curated, now, written } from './library.js';

/** One review template filled in for a language: long shared boilerplate, a different subject. */
const template = Array.from(
  { length: 30 },
  (_, i) => `Step ${i}: the orchestrator spawns worker ${i}, collects findings, deduplicates them and asks the judge about each one.`,
).join('\n\n');

function review(name: string, language: string) {
  return curated(name, `# ${language} Security Review\n\n${template}\n\nLook for ${language} specific bugs.\n`, {
    description: `Performs comprehensive ${language} security review for memory safety. Use when auditing ${language} code.`,
    extra: 'allowed-tools: Agent Read Write Bash\n',
  });
}

const frontmatter = (text: string) => parse(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '') as Record<string, unknown>;

describe('umbrellas of one subject', () => {
  it('does not merge one template filled in for two languages, though their words and tools agree', () => {
    const result = planConsolidation({ skills: [review('c-review', 'C'), review('rust-review', 'Rust')], now });
    expect(result.clusters).toEqual([]);
    expect(result.plans).toEqual([]);
  });

  it('still merges two copies of one subject under unrelated names', () => {
    const a = review('go-review', 'Go');
    const b = { ...review('q1234abcd', 'Go'), text: a.text.replace('name: go-review', 'name: q1234abcd') };
    const [plan] = planConsolidation({ skills: [a, b], now }).plans;
    expect(plan && [plan.into, ...plan.from].sort()).toEqual(['go-review', 'q1234abcd']);
    // The copy collapses: nothing of it is copied, not inline and not into references/.
    expect(plan?.collapsed).toHaveLength(1);
    expect(plan?.changes.filter((c) => c.content !== null && c.path.includes('references/'))).toEqual([]);
  });

  it("keeps each member's license and author in a NOTICE when they differ from the umbrella's", () => {
    const body = (n: number) => `# Deploy part ${n}\n\nRun the deploy script for part ${n} of the web service.\n`;
    const skills = [
      curated('deploy', `# Deploy\n\n## One\n\nx\n\n## Two\n\ny\n\n## Three\n\nz\n`, { extra: 'license: Apache-2.0\nauthor: Ann\n' }),
      curated('deploy-mit', body(1), { extra: 'license: MIT\nauthor: Bo\n' }),
    ];
    const [plan] = planConsolidation({ skills, now }).plans;
    const notice = written(plan?.changes ?? [], 'skills/deploy/references/NOTICE.md');
    expect(notice).toContain('| `deploy-mit` | MIT | Bo |');
    expect(notice).toContain('| `deploy` | Apache-2.0 | Ann |');
    const umbrella = written(plan?.changes ?? [], 'skills/deploy/SKILL.md');
    expect(frontmatter(umbrella).license).toBe('Apache-2.0');
    expect(umbrella).toContain('[references/NOTICE.md](references/NOTICE.md)');
  });

  it('points lines that name an absorbed skill at its section, and flags only those it cannot point', () => {
    const skills = [
      curated(
        'deploy-staging',
        '# Staging\n\nRun the deploy script against the staging servers of the web service.\n\nFor production use `deploy-prod` instead; see the deploy-prod skill for approvals.\n\n```sh\nskillgarden show deploy-prod\n```\n',
        { description: 'Deploys the web service to staging. Use when a release goes to staging.' },
      ),
      curated('deploy-prod', '# Production\n\nRun the deploy script against the production servers of the web service.\n', {
        description: 'Deploys the web service to production. Use when a release goes live.',
      }),
    ];
    const [plan] = planConsolidation({ skills, now }).plans;
    const umbrella = written(plan?.changes ?? [], `${plan?.intoDir}/SKILL.md`);
    expect(umbrella).toContain(
      'For production use [Production](#production) instead; see the [Production](#production) section for approvals.',
    );
    expect(umbrella).toContain('## Production\n');
    // A command names the skill as a command does: left as written, and flagged for the reviewer.
    expect(umbrella).toContain('skillgarden show deploy-prod\n');
    expect(plan?.pointers).toEqual([expect.stringMatching(/^SKILL\.md:\d+: skillgarden show deploy-prod$/)]);
  });
});

describe('an umbrella description in sentences', () => {
  it('closes the base sentence, gives each facet its own sentence and keeps every trigger in one', () => {
    const { description } = buildUmbrellaDescription({
      topic: 'Testing',
      base: 'Use when implementing any feature or bugfix, before writing implementation code',
      members: [
        { name: 'test-driven-development-hermes', description: 'TDD: enforce RED-GREEN-REFACTOR. Use when writing tests first.' },
        { name: 'testing-anti-patterns', description: 'Spots mocks that test nothing. Use when reviewing a test suite.' },
      ],
    });
    expect(description).toBe(
      'Use when implementing any feature or bugfix, before writing implementation code. TDD: enforce RED-GREEN-REFACTOR. ' +
        'Spots mocks that test nothing. Also use when writing tests first; or when reviewing a test suite.',
    );
    expect(description).not.toMatch(/test-driven-development-hermes|Also covers|tDD/);
  });

  it('stays within 1,024 characters with every trigger kept in when_to_use', () => {
    const members = Array.from({ length: 12 }, (_, i) => ({
      name: `m${i}`,
      description: `Does task ${i} ${'carefully '.repeat(10)}. Use when the user asks for task ${i} ${'with care '.repeat(8)}.`,
    }));
    const wording = buildUmbrellaDescription({ topic: 'Tasks', members });
    expect([...wording.description].length).toBeLessThanOrEqual(1024);
    for (let i = 0; i < 12; i++) expect(wording.whenToUse).toContain(`task ${i} `);
  });
});
