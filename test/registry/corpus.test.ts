import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQuickSkill } from '../../src/core/registry/quick-frontmatter.js';
import { parseSkill } from '../../src/core/skill/index.js';
import { SkillRegistry } from '../../src/registry/index.js';
import { corpusSkillsRoot, listCorpusSkills, missingFullCorpus } from '../helpers/corpus.js';

describe('registry on the real corpus (the fixture set when it is absent)', () => {
  it('the quick frontmatter reader agrees with the YAML parser on every real SKILL.md it reads', () => {
    let answered = 0;
    const skills = listCorpusSkills();
    for (const skill of skills) {
      const text = readFileSync(skill.file, 'utf8');
      const quick = parseQuickSkill(text);
      if (!quick) continue;
      answered++;
      const full = parseSkill(text, { file: skill.relative });
      expect(quick.fields, skill.relative).toEqual(full.fields);
      expect(quick.body, skill.relative).toBe(full.body);
    }
    // Most real skills use the simple form; if this drops, the fast path stopped paying for itself.
    expect(answered / skills.length).toBeGreaterThan(0.5);
  });

  it.skipIf(missingFullCorpus())('serves a real collection: every skill listed, loadable, reminder within budget', async () => {
    const registry = await SkillRegistry.open({
      repoDir: join(corpusSkillsRoot, 'K-Dense-AI__claude-scientific-skills'),
      skillsDir: 'scientific-skills',
      now: () => new Date('2026-11-30T00:00:00Z'),
    });
    const names = registry.list().map((e) => e.name);
    expect(names.length).toBeGreaterThan(100);
    for (const name of names) expect((await registry.load(name, { sessionId: 's' })).status, name).toMatch(/^(inline|fork)$/);
    const reminder = registry.buildReminder();
    expect(reminder.length).toBeLessThanOrEqual(8_000);
    expect(reminder).toMatch(/<!-- Showing \d+ of \d+ skills within the character budget -->/);
  });
});
