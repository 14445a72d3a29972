import { describe, expect, it } from 'vitest';
import { buildScanReport, renderScanText, toFindings, type ScanResult } from '../../../src/core/scan/report.js';
import { scanSkillText } from '../../../src/core/scan/match.js';
import { buildVerdict } from '../../../src/core/scan/verdict.js';

function result(skill: string, text: string): ScanResult {
  const findings = scanSkillText(text, { file: `skills/${skill}/SKILL.md` });
  return { skill, dir: `skills/${skill}`, files: 1, bytes: text.length, findings, verdict: buildVerdict(findings) };
}

describe('scan report', () => {
  const results = [
    result('ok', '# fine\n'),
    result('risky', 'x\nrm -rf ~ \n'),
    result('meh', 'ngrok http 8080\n<!-- skillgarden-ignore: net-tunnel — needed for the demo -->\nngrok http 8080\n'),
  ];
  const report = buildScanReport(results);

  it('has the DESIGN §12 shape', () => {
    expect(report.verdicts).toEqual({ ok: 'safe', risky: 'dangerous', meh: 'caution' });
    expect(report.summary).toEqual({ safe: 1, caution: 1, dangerous: 1, findings: 3, suppressed: 1 });
    for (const f of report.findings)
      expect(Object.keys(f)).toEqual(
        expect.arrayContaining(['rule', 'category', 'severity', 'file', 'line', 'column', 'match', 'message']),
      );
  });

  it('renders compiler-style lines', () => {
    const text = renderScanText(report);
    expect(text).toContain('skills/risky/SKILL.md:2:1 high destroy-rm-home recursive delete of the home folder: rm -rf ~');
    expect(text).toContain(
      'skills/meh/SKILL.md:3:1 medium net-tunnel exposes a local port to the internet through a tunnel: ngrok http [suppressed (inline): needed for the demo]',
    );
    expect(text.trim().split('\n').at(-1)).toBe('3 skills scanned: 1 safe, 1 caution, 1 dangerous; 3 findings (1 suppressed)');
  });

  it('converts to the project Finding type with scan/ codes', () => {
    const findings = toFindings(report.findings);
    expect(findings.map((f) => [f.code, f.severity, f.line])).toEqual([
      ['scan/net-tunnel', 'warning', 1],
      ['scan/net-tunnel', 'info', 3],
      ['scan/destroy-rm-home', 'error', 2],
    ]);
  });
});
