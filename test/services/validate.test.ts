import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../src/core/errors.js';
import { runValidate } from '../../src/services/validate.js';
import { corpusSkillsRoot, describeFullCorpus } from '../helpers/corpus.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

describe('runValidate', () => {
  it('validates a library root with categories and skips archives and support folders', () => {
    const root = tempDir();
    writeTree(root, {
      'skills/alpha/SKILL.md': skillText('alpha'),
      'skills/research/beta/SKILL.md': skillText('beta'),
      'skills/.archive/gamma/SKILL.md': skillText('wrong-name'),
      'skills/alpha/references/SKILL.md': skillText('not-a-skill'),
    });
    const report = runValidate({ cwd: root, paths: ['skills'] });
    expect(report).toMatchObject({ skills: 2, errors: 0, warnings: 0, findings: [] });
  });

  it('reports findings with paths relative to the working folder', () => {
    const root = tempDir();
    writeTree(root, { 'skills/alpha/SKILL.md': skillText('beta') });
    const report = runValidate({ cwd: root, paths: ['skills/alpha/SKILL.md'] });
    expect(report.findings).toMatchObject([{ code: 'skill/name-mismatch', file: 'skills/alpha/SKILL.md', line: 2, column: 7 }]);
  });

  it.each([
    ['an empty file', '', 'skill/frontmatter-missing'],
    ['binary content', new Uint8Array([0, 1, 2, 255, 254, 0, 10]), 'skill/frontmatter-missing'],
    ['a list as frontmatter', '---\n- a\n---\n', 'schema/not-a-map'],
    ['a scalar as frontmatter', '---\nhello\n---\n', 'schema/not-a-map'],
    ['unterminated frontmatter', '---\nname: alpha\n', 'skill/frontmatter-unterminated'],
  ])('turns %s into a finding, never a crash', (_label, content, code) => {
    const root = tempDir();
    writeTree(root, { 'skills/alpha/SKILL.md': content });
    const report = runValidate({ cwd: root });
    expect(report.findings.map((f) => f.code)).toContain(code);
    expect(report.errors).toBeGreaterThan(0);
  });

  it('refuses to read a SKILL.md symlinked to a file outside the repository', () => {
    const root = tempDir();
    const elsewhere = tempDir();
    writeTree(elsewhere, { 'SKILL.md': skillText('alpha') });
    writeTree(root, { 'skills/alpha/.keep': '' });
    symlinkSync(join(elsewhere, 'SKILL.md'), join(root, 'skills/alpha/SKILL.md'));
    const report = runValidate({ cwd: root });
    expect(report.findings).toMatchObject([{ code: 'library/symlink-escapes', severity: 'error', file: 'skills/alpha/SKILL.md' }]);
  });

  it('fails with a clear error for a path that does not exist', () => {
    const root = tempDir();
    try {
      runValidate({ cwd: root, paths: ['nope'] });
      expect.unreachable();
    } catch (error) {
      expect(isSkillgardenError(error, 'validate/not-found')).toBe(true);
    }
  });

  it('checks links against the files really in the skill', () => {
    const root = tempDir();
    writeTree(root, {
      'skills/alpha/SKILL.md': skillText('alpha', '', 'See [api](references/api.md) and [gone](references/gone.md).\n'),
      'skills/alpha/references/api.md': '# API\n',
    });
    const report = runValidate({ cwd: root });
    expect(report.findings).toMatchObject([{ code: 'skill/link-missing', line: 5, column: 41 }]);
  });
});

describeFullCorpus('the real corpus under the spec profile', () => {
  it('finds the known problems, counted per skill', () => {
    const report = runValidate({ cwd: corpusSkillsRoot, paths: ['.'], profile: 'spec' });
    const skillsPerCode = new Map<string, Set<string>>();
    for (const f of report.findings) {
      const skill = f.file.replace(/\/SKILL\.md$/, '');
      if (!skillsPerCode.has(f.code)) skillsPerCode.set(f.code, new Set());
      skillsPerCode.get(f.code)?.add(skill);
    }
    const counts = Object.fromEntries([...skillsPerCode].map(([code, skills]) => [code, skills.size]));
    expect(report.skills).toBe(716);
    expect(counts).toEqual({
      'schema/unknown-key': 293,
      // 160 skills with non-string metadata values plus 3 with allowed-tools as a list.
      'schema/type': 163,
      // 101 if the empty string after the final newline is counted as a line; `wc -l` agrees with 99.
      'skill/body-too-long': 99,
      // 80, plus 2 skills (wshobson, trailofbits) whose links to sibling skills or plugin files name folders the corpus did not keep.
      'skill/link-missing': 82,
      'skill/name-mismatch': 64,
      'skill/description-angle-brackets': 13,
      // The 11 `../sibling/SKILL.md` links of wshobson and trailofbits stay inside the library: allowed (`links: library`).
      'skill/too-large': 3,
      'skill/description-too-long': 2,
      'skill/crlf': 1,
      'skill/name-format': 1,
    });
  });
});
