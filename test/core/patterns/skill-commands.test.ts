import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildToolCall, defaultRefine } from '../../../src/core/patterns/shape.js';
import { commandName } from '../../../src/core/patterns/shape.js';
import { distinctiveCommands, listSkillCommandHeads } from '../../../src/core/patterns/skill-commands.js';

const listSkillCommands = (text: string) => [...new Set(listSkillCommandHeads(text).map(commandName))];

const skill = [
  '---',
  'name: ship',
  'description: Ship it. Run `npm publish` when done.',
  '---',
  '# ship',
  '',
  'First `cd app && npm test -- --run`, then:',
  '',
  '```bash',
  '# bump',
  '$ npm version patch',
  'git push --follow-tags; gh release create v1',
  'npx prisma migrate dev --name <change>  # when the schema changed',
  '```',
  '',
].join('\n');

describe("a skill's own commands, reduced as the transcript readers reduce a session's", () => {
  it('reads fenced blocks and inline spans of the body, never the frontmatter', () => {
    expect(listSkillCommands(skill).sort()).toEqual([
      'gh release create',
      'git push',
      'npm test',
      'npm version patch',
      'npx prisma migrate',
    ]);
  });

  it('gives the same command name a session call of the same command line gets', () => {
    const line = fc.constantFrom(
      'npm test -- --run',
      'git push --follow-tags',
      'pdftotext -layout a.pdf b.txt',
      'sudo apt-get install jq',
      'cd x && make test',
    );
    fc.assert(
      fc.property(line, (command) => {
        const call = buildToolCall('Bash', { command }, { refine: defaultRefine });
        const session = commandName(call.detail ?? '');
        expect(listSkillCommands(`# s\n\n\`\`\`\n${command}\n\`\`\`\n`)).toContain(session);
      }),
    );
  });

  it('leaves out the commands that only look around', () => {
    expect(distinctiveCommands(['git status', 'ls', 'npm publish', 'git push', 'cat', 'npm publish'])).toEqual(['npm publish', 'git push']);
  });
});
