import { describe, expect, it } from 'vitest';
import { renderFindingsText } from '../../../src/core/report/render-findings.js';
import { escapeControl } from '../../../src/core/report/escape-text.js';
import { buildScanReport, renderScanText } from '../../../src/core/scan/report.js';
import type { ScanFinding } from '../../../src/core/scan/types.js';

describe('text output escapes control characters from any value', () => {
  it('turns newlines, carriage returns and ANSI escapes into visible escapes, keeping tabs', () => {
    expect(escapeControl('a\nb\r\u001b[31mred\u0007\tx\u009b')).toBe('a\\nb\\r\\e[31mred\\x07\tx\\x9b');
  });

  it('a file name cannot forge a ::warning line or colour the terminal', () => {
    const text = renderFindingsText(
      [
        {
          code: 'skill/x',
          severity: 'error',
          file: 'skills/a\n::warning file=x::pwned/SKILL.md',
          line: 1,
          column: 1,
          message: 'm\u001b[2J',
          hint: 'h\n::error::x',
        },
      ],
      { skills: 1, errors: 1, warnings: 0 },
    );
    expect(text.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    expect(text).not.toMatch(/\u001b/);
    expect(text.trimEnd().split('\n')).toHaveLength(3);
  });
});

describe('repeated findings of one rule in one skill are grouped in the scan text', () => {
  const hit = (file: string, line: number, rule = 'net-bind-all'): ScanFinding => ({
    rule,
    category: 'network',
    severity: 'medium',
    file,
    line,
    column: 1,
    match: '0.0.0.0',
    message: 'binds every interface',
    hint: '',
    via: 'raw',
  });

  it('shows three, then one line for the rest, and keeps other rules and skills apart', () => {
    const findings = Array.from({ length: 56 }, (_, i) => hit(`skills/a/references/r${String(i).padStart(2, '0')}.md`, 1));
    const report = buildScanReport([
      {
        skill: 'a',
        dir: 'skills/a',
        files: 56,
        bytes: 0,
        findings: [...findings, hit('skills/a/SKILL.md', 9, 'priv-sudo')],
        verdict: 'caution',
      },
      { skill: 'b', dir: 'skills/b', files: 1, bytes: 0, findings: [hit('skills/b/SKILL.md', 2)], verdict: 'caution' },
    ]);
    const lines = renderScanText(report).trimEnd().split('\n');
    expect(lines.filter((l) => / net-bind-all /.test(l))).toHaveLength(5);
    expect(lines).toContain(
      '  … and 53 more net-bind-all in a (skills/a/references/r03.md, skills/a/references/r04.md, skills/a/references/r05.md, 50 more files; --json lists them all)',
    );
    expect(lines.some((l) => l.startsWith('skills/a/SKILL.md:9:1 medium priv-sudo'))).toBe(true);
    expect(report.findings).toHaveLength(58);
  });
});
