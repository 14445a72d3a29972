import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

describe('a skill one level deeper than discovery looks', () => {
  it('is a finding on its own path, not a silent miss; nested skills and served ones are not', async () => {
    const dir = repoWith({
      'skills/ops/deploy/SKILL.md': skillText('deploy'),
      'skills/ops/deploy/templates/inner/SKILL.md': skillText('inner'),
      'skills/automation/n8n/n8n-code/SKILL.md': skillText('n8n-code'),
      'skills/automation/n8n/README.md': '# n8n\n',
      'skills/automation/n8n/n8n-notes/notes.md': 'not a skill\n',
      'skills/lint/SKILL.md': skillText('lint'),
    });
    const list = JSON.parse((await cli(['list', '--json'], { cwd: dir })).stdout) as { skills: { name: string }[] };
    expect(list.skills.map((s) => s.name).sort()).toEqual(['deploy', 'lint']);
    const validate = JSON.parse((await cli(['validate', '--json'], { cwd: dir })).stdout) as {
      findings: { code: string; file: string; message: string }[];
    };
    const deep = validate.findings.filter((f) => f.code === 'library/too-deep');
    expect(deep.map((f) => f.file)).toEqual(['skills/automation/n8n/n8n-code/SKILL.md']);
    expect(deep[0]?.message).toContain('never served');
  }, 60_000);
});
