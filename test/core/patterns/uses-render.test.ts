import { describe, expect, it } from 'vitest';
import { renderDetectText, renderPatternsMarkdown } from '../../../src/core/patterns/render.js';
import type { DetectReport } from '../../../src/core/patterns/types.js';
import { buildSkillUses, parseSkillLoads, parseSlashCommand } from '../../../src/core/patterns/uses.js';

describe('skill uses', () => {
  it.each([
    ['Skill', { skill: 'deploy-checklist' }, 'deploy-checklist'],
    ['Skill', { skill: 'elixir:hex-docs-search', args: 'x' }, 'elixir:hex-docs-search'],
    ['load_skill', { name: 'pdf-tools' }, 'pdf-tools'],
    ['skill_view', { name: 'arxiv' }, 'arxiv'],
    ['skill_view', { name: 'has spaces' }, undefined],
    ['activate_skill', { name: 'release-notes' }, 'release-notes'],
    ['skill', { name: 'db-migrate' }, 'db-migrate'],
    ['Read', { skill: 'x' }, undefined],
    ['Skill', 'deploy', undefined],
    ['SlashCommand', { command: '/review-pr 123' }, 'review-pr'],
    ['SlashCommand', { command: '/compact' }, undefined],
    ['Read', { file_path: '/home/u/.claude/skills/pdf-tools/SKILL.md' }, 'pdf-tools'],
    ['Read', { file_path: 'skills/ops/deploy/SKILL.md' }, 'deploy'],
    // OpenCode's read tool names its argument filePath.
    ['read', { filePath: '/home/u/.opencode/skills/db-migrate/SKILL.md' }, 'db-migrate'],
    ['Read', { file_path: 'skills/pdf/README.md' }, undefined],
    ['Edit', { file_path: 'skills/pdf/SKILL.md' }, undefined],
    ['Write', { file_path: 'skills/pdf/SKILL.md', content: '' }, undefined],
  ])('%s %j → %j', (tool, args, skill) => {
    expect(parseSkillLoads(tool, args)[0]).toBe(skill);
  });

  it.each([
    [
      'exec_command',
      {
        cmd: "sed -n '1,180p' /Users/u/.codex/plugins/cache/superpowers/skills/using-superpowers/SKILL.md",
      },
      'sed',
      'using-superpowers',
    ],
    ['Bash', { command: 'cat skills/arxiv/SKILL.md' }, 'cat', 'arxiv'],
    ['Bash', { command: 'vim skills/arxiv/SKILL.md' }, 'vim', undefined],
    ['Bash', { command: 'sed -i s/a/b/ skills/arxiv/SKILL.md' }, 'sed', undefined],
  ])('%s %j (program %s) → %j', (tool, args, program, skill) => {
    expect(parseSkillLoads(tool, args, program)[0]).toBe(skill);
  });

  it.each([
    ['/deploy-checklist staging', 'deploy-checklist'],
    ['  /review-pr', 'review-pr'],
    ['<command-name>/frontend-design</command-name><command-args></command-args>', 'frontend-design'],
    ['/clear', undefined],
    ['/compact', undefined],
    ['please run /deploy later', undefined],
    ['/usr/bin/env is a path', undefined],
  ])('%j → %j', (text, skill) => {
    expect(parseSlashCommand(text)).toBe(skill);
  });

  it('orders uses by time, untimed last', () => {
    const uses = buildSkillUses([
      {
        uses: [
          { skill: 'b', session: 's2', time: '2026-01-02T00:00:00Z' },
          { skill: 'c', session: 's1' },
        ],
      },
      { uses: [{ skill: 'a', session: 's1', time: '2026-01-01T00:00:00Z' }] },
    ]);
    expect(uses.map((u) => u.skill)).toEqual(['a', 'b', 'c']);
  });
});

describe('rendering', () => {
  const report: DetectReport = {
    sessions: 3,
    calls: 12,
    files: 2,
    skipped: [{ file: 'a.jsonl', reason: 'lines that are not JSON', count: 3 }],
    patterns: [
      {
        tools: ['Read', 'Edit'],
        sessions: 3,
        confidence: 1,
        fingerprint: 'aaaaaaaaaaaaaaaa',
        draft: { name: 'read-edit', fingerprint: 'aaaaaaaaaaaaaaaa', text: '' },
      },
      {
        tools: ['Grep', 'Bash:a|b'],
        sessions: 4,
        confidence: 0.5,
        fingerprint: 'bbbbbbbbbbbbbbbb',
        coveredBy: 'searching',
      },
      { tools: ['Edit'], sessions: 3, confidence: 1, fingerprint: 'cccccccccccccccc', collapsedInto: 'read-edit' },
      {
        tools: ['Bash:npm', 'Bash:git'],
        sessions: 5,
        confidence: 0.4,
        fingerprint: 'eeeeeeeeeeeeeeee',
        coveredBy: 'release-cut',
        reason: 'release-cut already runs these commands (npm version, npm publish)',
      },
      {
        tools: ['Bash:npm', 'Edit', 'Bash:npm'],
        sessions: 5,
        confidence: 0.7,
        fingerprint: 'dddddddddddddddd',
        reason: 'runs only commands every task runs (npm test) between reads and edits: a working habit',
      },
    ],
    uses: [
      { skill: 'pdf', session: 's' },
      { skill: 'pdf', session: 't' },
    ],
  };

  it('renders the text report with skips, patterns and skill loads', () => {
    const text = renderDetectText(report);
    expect(text).toContain('Read 2 files: 3 sessions with 12 tool calls.');
    expect(text).toContain('a.jsonl: 3 × lines that are not JSON');
    expect(text).toContain('1. Read → Edit  [3 sessions, confidence 1.00, aaaaaaaaaaaaaaaa]  draft: read-edit');
    expect(text).toContain('covered by searching');
    // A pattern without a draft says why: folded into another, or the reason.
    expect(text).toContain('cccccccccccccccc]  folded into the draft read-edit');
    expect(text).toContain('dddddddddddddddd]  no draft: runs only commands every task runs (npm test)');
    expect(text).toContain('pdf: 2');
    expect(renderDetectText({ ...report, patterns: [], skipped: [], uses: [] })).toContain('No repeated tool sequences found.');
  });

  it('names the lines a skip came from, and says when there were more', () => {
    const skipped = [
      { file: 'a.jsonl', reason: 'lines that are not JSON', count: 2, lines: [4, 9] },
      { file: 'b.jsonl', reason: 'truncated last line (not JSON)', count: 1, lines: [30] },
      { file: 'c.jsonl', reason: 'JSON lines that are not objects', count: 12, lines: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
    ];
    const text = renderDetectText({ ...report, skipped });
    expect(text).toContain('a.jsonl: 2 × lines that are not JSON (lines 4, 9)');
    expect(text).toContain('b.jsonl: 1 × truncated last line (not JSON) (line 30)');
    expect(text).toContain('c.jsonl: 12 × JSON lines that are not objects (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …)');
  });

  it('caps the skipped list and says how much is left out', () => {
    const skipped = Array.from({ length: 25 }, (_, i) => ({ file: `f${i % 10}.jsonl`, reason: 'lines that are not JSON', count: 1 }));
    const text = renderDetectText({ ...report, skipped }, { maxSkipped: 20 });
    expect(text.match(/× lines that are not JSON/g)?.length).toBe(20);
    expect(text).toContain('… and 5 more entries in 5 files (--json lists them all)');
  });

  it('renders a REPORT.md section with escaped table cells', () => {
    const markdown = renderPatternsMarkdown(report.patterns);
    expect(markdown).toContain('| 1 | `Read` → `Edit` | 3 | 1.00 | `aaaaaaaaaaaaaaaa` | draft: `read-edit` |');
    expect(markdown).toContain('| covered by `searching` |');
    expect(markdown).toContain('| folded into the draft `read-edit` |');
    expect(markdown).toContain('| covered by `release-cut`: release-cut already runs these commands (npm version, npm publish) |');
    expect(markdown).toContain('| no draft: runs only commands every task runs (npm test) between reads and edits: a working habit |');
    expect(markdown).toContain('`Bash:a\\|b`');
    expect(renderPatternsMarkdown([])).toContain('No repeated tool sequences found.');
  });
});
