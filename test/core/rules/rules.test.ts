import { describe, expect, it } from 'vitest';
import { checkRules, extractLinks, type ProfileName, type SkillFileEntry } from '../../../src/core/rules/index.js';
import { parseSkill } from '../../../src/core/skill/index.js';

interface Case {
  label: string;
  frontmatter?: string;
  body?: string;
  folder?: string;
  profile?: ProfileName;
  files?: Record<string, number>;
  expect: { code: string; severity?: string; line?: number; column?: number }[];
}

const run = (c: Case) => {
  const text = `---\n${c.frontmatter ?? 'name: demo\ndescription: Does a thing. Use when a thing is needed.'}\n---\n${c.body ?? '# Demo\n'}`;
  const skill = parseSkill(text, { file: 'skills/demo/SKILL.md' });
  const files = c.files
    ? new Map<string, SkillFileEntry>(Object.entries(c.files).map(([path, size]) => [path, { path, size }]))
    : undefined;
  return checkRules({ skill, folder: c.folder ?? 'demo', profile: c.profile ?? 'portable', files });
};

const cases: Case[] = [
  { label: 'a valid skill', expect: [] },
  {
    label: 'uppercase name',
    frontmatter: 'name: Demo\ndescription: d',
    folder: 'Demo',
    expect: [{ code: 'skill/name-format', severity: 'error', line: 2, column: 7 }],
  },
  { label: 'double hyphen', frontmatter: 'name: de--mo\ndescription: d', folder: 'de--mo', expect: [{ code: 'skill/name-format' }] },
  { label: 'underscore under hermes', frontmatter: 'name: de_mo\ndescription: d', folder: 'de_mo', profile: 'hermes', expect: [] },
  {
    label: 'underscore under portable',
    frontmatter: 'name: de_mo\ndescription: d',
    folder: 'de_mo',
    expect: [{ code: 'skill/name-format', severity: 'warning' }],
  },
  {
    label: 'underscore under spec',
    frontmatter: 'name: de_mo\ndescription: d',
    folder: 'de_mo',
    profile: 'spec',
    expect: [{ code: 'skill/name-format', severity: 'error' }],
  },
  {
    label: '65-character name',
    frontmatter: `name: ${'a'.repeat(65)}\ndescription: d`,
    folder: 'a'.repeat(65),
    expect: [{ code: 'skill/name-too-long' }],
  },
  { label: '64-character name', frontmatter: `name: ${'a'.repeat(64)}\ndescription: d`, folder: 'a'.repeat(64), expect: [] },
  {
    label: 'name differs from folder',
    frontmatter: 'name: other\ndescription: d',
    expect: [{ code: 'skill/name-mismatch', line: 2, column: 7 }],
  },
  { label: 'empty description', frontmatter: 'name: demo\ndescription: "  "', expect: [{ code: 'skill/description-empty' }] },
  {
    label: '1025-character description',
    frontmatter: `name: demo\ndescription: ${'d'.repeat(1025)}`,
    expect: [{ code: 'skill/description-too-long', line: 3 }],
  },
  { label: '1024 emoji are 1024 characters', frontmatter: `name: demo\ndescription: ${'😀'.repeat(1024)}`, expect: [] },
  {
    label: 'angle brackets',
    frontmatter: 'name: demo\ndescription: Use for <html> files',
    expect: [{ code: 'skill/description-angle-brackets', severity: 'warning' }],
  },
  {
    label: 'long compatibility',
    frontmatter: `name: demo\ndescription: d\ncompatibility: ${'c'.repeat(501)}`,
    expect: [{ code: 'skill/compatibility-too-long' }],
  },
  {
    label: 'bad glob in a list',
    frontmatter: 'name: demo\ndescription: d\npaths:\n  - "src/**"\n  - "src/[abc"',
    expect: [{ code: 'skill/bad-glob', line: 6, column: 5 }],
  },
  { label: 'bad glob in a string', frontmatter: 'name: demo\ndescription: d\npaths: "a{b"', expect: [{ code: 'skill/bad-glob', line: 4 }] },
  {
    label: 'link escaping the skill',
    body: '# D\n\nSee [x](../other/SKILL.md).\n',
    expect: [{ code: 'skill/link-escapes', severity: 'error', line: 7, column: 9 }],
  },
  { label: 'absolute link', body: 'See [x](/etc/passwd).\n', expect: [{ code: 'skill/link-escapes' }] },
  {
    label: 'missing link target',
    body: 'See [ref](references/api.md).\n',
    files: { 'SKILL.md': 10 },
    expect: [{ code: 'skill/link-missing', severity: 'warning' }],
  },
  {
    label: 'present link target with anchor',
    body: 'See [ref](references/api.md#top).\n',
    files: { 'SKILL.md': 10, 'references/api.md': 5 },
    expect: [],
  },
  { label: 'link to a folder', body: 'See [refs](references/).\n', files: { 'references/api.md': 5 }, expect: [] },
  {
    label: 'external and template links',
    body: '[a](https://x.y/../z) [b](#top) [c](${SKILL_DIR}/x) [d](mailto:a@b)\n',
    files: {},
    expect: [],
  },
  { label: 'links in code are not links', body: '```\n[a](../x)\n```\n`[b](../y)`\n', expect: [] },
  { label: 'reference definition escaping', body: '[a]: ../../secret.md\n', expect: [{ code: 'skill/link-escapes', line: 5 }] },
  { label: 'over 100,000 characters', body: 'x'.repeat(100_001), expect: [{ code: 'skill/too-large', severity: 'error' }] },
  { label: '501 body lines', body: 'line\n'.repeat(501), expect: [{ code: 'skill/body-too-long', severity: 'warning' }] },
  { label: '500 body lines', body: 'line\n'.repeat(500), expect: [] },
  {
    label: 'support file over 1 MiB',
    files: { 'SKILL.md': 10, 'assets/big.bin': 1024 * 1024 + 1 },
    expect: [{ code: 'skill/support-file-too-large' }],
  },
];

describe('rules', () => {
  it.each(cases)('$label', (c) => {
    const findings = run(c);
    expect(findings.map((f) => f.code)).toEqual(c.expect.map((e) => e.code));
    c.expect.forEach((e, i) => expect(findings[i]).toMatchObject(e));
  });

  it('gives every finding a hint', () => {
    for (const c of cases) for (const f of run(c)) expect(f.hint.length, f.code).toBeGreaterThan(10);
  });
});

describe('extractLinks', () => {
  it('finds inline links, images and definitions with their columns', () => {
    expect(extractLinks('a [x](one.md) ![i](img.png "t")\n[d]: <two words.md>\n')).toEqual([
      { target: 'one.md', line: 1, column: 7 },
      { target: 'img.png', line: 1, column: 20 },
      { target: 'two words.md', line: 2, column: 6 },
    ]);
  });

  it('gives the column of the target even when the link text spells the same path', () => {
    expect(extractLinks('[references/a.md](references/a.md)\n[references/b.md]: references/b.md\n')).toEqual([
      { target: 'references/a.md', line: 1, column: 19 },
      { target: 'references/b.md', line: 2, column: 20 },
    ]);
  });

  it('stays fast on hostile lines', () => {
    const hostile = '['.repeat(50_000) + '](' + '('.repeat(50_000);
    expect(extractLinks(hostile)).toEqual([]);
  });
});
