import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { git, repoWith, subjects } from '../helpers/repo.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

// The OASIS schema is draft-04; apart from its root `id` (draft-07's `$id`) it uses keywords draft-07 reads alike.
const schemaFile = join(import.meta.dirname, '..', 'fixtures', 'sarif', 'sarif-schema-2.1.0.json');
const { $schema: _draft, id, ...definitions } = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const checkSarif = ajv.compile({ $id: id as string, ...definitions });

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { rules: { id: string; help: { text: string }; shortDescription: { text: string } }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }[];
      suppressions?: unknown[];
    }[];
  }[];
}

function library(): string {
  const root = tempDir();
  writeTree(root, {
    'skills/good/SKILL.md': skillText('good'),
    'skills/bad/SKILL.md': '---\nname: Bad_Name\ndescription: x\nextra-key: 1\n---\nbody\n',
    'skills/good/evals/evals.json':
      '{\n  "skill_name": "good",\n  "evals": [\n    {"id": 1, "prompt": "Do it", "files": ["evals/in.txt"]},\n    {"id": 1, "prompt": ""}\n  ]\n}\n',
  });
  return root;
}

describe('validate --format sarif', () => {
  it('writes SARIF 2.1.0 that the OASIS schema accepts: rules with help, results on their lines', async () => {
    const run = await cli(['validate', '--format', 'sarif', '--no-scan'], { cwd: library() });
    expect(run.code).toBe(1);
    const log = JSON.parse(run.stdout) as SarifLog;
    expect(checkSarif(log), JSON.stringify(checkSarif.errors?.slice(0, 3))).toBe(true);
    expect(log.version).toBe('2.1.0');
    // The check can fail: a driver with no name is not SARIF.
    expect(checkSarif({ version: '2.1.0', runs: [{ tool: { driver: {} }, results: [] }] })).toBe(false);
    const [sarifRun] = log.runs;
    const rules = sarifRun?.tool.driver.rules ?? [];
    const results = sarifRun?.results ?? [];
    expect(rules.map((r) => r.id)).toEqual([...new Set(rules.map((r) => r.id))].sort());
    expect(rules.every((r) => r.help.text.length > 0)).toBe(true);
    for (const result of results) expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
    const mismatch = results.find((r) => r.ruleId === 'skill/name-mismatch');
    expect(mismatch?.level).toBe('error');
    expect(mismatch?.locations[0]?.physicalLocation).toEqual({
      artifactLocation: { uri: 'skills/bad/SKILL.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2, startColumn: 7 },
    });
    expect(results.find((r) => r.ruleId === 'schema/unknown-key')?.level).toBe('warning');
  });

  it('checks evals/evals.json in the Agent Skills evaluation format, each finding on its case', async () => {
    const run = await cli(['--json', 'validate', '--no-scan'], { cwd: library() });
    const { findings } = JSON.parse(run.stdout) as { findings: { code: string; file: string; line: number }[] };
    const evals = findings.filter((f) => f.file === 'skills/good/evals/evals.json').map((f) => [f.code, f.line]);
    expect(evals).toEqual([
      ['evals/file-missing', 4],
      ['evals/bad-case', 5],
      ['evals/duplicate-id', 5],
    ]);
    const root = tempDir();
    writeTree(root, {
      'skills/a/SKILL.md': skillText('a'),
      'skills/a/evals/evals.json': '[{"id": "x"}]',
      'skills/b/SKILL.md': skillText('b'),
      'skills/b/evals/evals.json': '{"evals": [}',
    });
    const other = JSON.parse((await cli(['--json', 'validate', '--no-scan'], { cwd: root })).stdout) as { findings: { code: string }[] };
    expect(other.findings.map((f) => f.code)).toEqual(['evals/not-an-object', 'evals/json-syntax']);
  });

  it('checks evals/trigger-queries.json, the trigger eval set a draft carries, beside evals.json', async () => {
    const root = tempDir();
    writeTree(root, {
      'skills/a/SKILL.md': skillText('a'),
      'skills/a/evals/trigger-queries.json':
        '[{"query": "cut a release", "should_trigger": true}, {"query": "cut a release"}, {"should_trigger": "no"}]',
      'skills/b/SKILL.md': skillText('b'),
      'skills/b/evals/trigger-queries.json': '[{"query": "fine", "should_trigger": false}]',
      'skills/c/SKILL.md': skillText('c'),
      'skills/c/evals/trigger-queries.json': '{"query": "not a list"}',
    });
    const run = await cli(['--json', 'validate', '--no-scan'], { cwd: root });
    expect(run.code).toBe(1);
    const { findings } = JSON.parse(run.stdout) as { findings: { code: string; file: string; message: string }[] };
    expect(findings.map((f) => [f.file, f.code, f.message])).toEqual([
      ['skills/a/evals/trigger-queries.json', 'evals/bad-trigger-query', '[1] repeats the query of an earlier entry'],
      ['skills/a/evals/trigger-queries.json', 'evals/bad-trigger-query', '[1] needs "should_trigger": true or false'],
      ['skills/a/evals/trigger-queries.json', 'evals/bad-trigger-query', '[2] needs a non-empty "query"'],
      ['skills/a/evals/trigger-queries.json', 'evals/bad-trigger-query', '[2] needs "should_trigger": true or false'],
      ['skills/c/evals/trigger-queries.json', 'evals/bad-trigger-query', 'a trigger eval set must be a list of queries'],
    ]);
  });
});

describe('validate --baseline', () => {
  it('passes known findings and fails new ones, both ways', async () => {
    const root = library();
    const written = await cli(['validate', '--no-scan', '--write-baseline', '.skillgarden/baseline.json'], { cwd: root });
    expect(written.code).toBe(0);
    const baseline = JSON.parse(readFileSync(join(root, '.skillgarden/baseline.json'), 'utf8')) as { findings: unknown[] };
    expect(baseline.findings.length).toBeGreaterThan(3);

    // Known findings pass, even after an edit moves them down a line.
    writeFileSync(join(root, 'skills/bad/SKILL.md'), '---\n# moved\nname: Bad_Name\ndescription: x\nextra-key: 1\n---\nbody\n');
    const known = await cli(['--json', 'validate', '--no-scan', '--baseline', '.skillgarden/baseline.json'], { cwd: root });
    expect(known.code).toBe(0);
    const knownReport = JSON.parse(known.stdout) as { findings: unknown[]; baselined: number };
    expect(knownReport.findings).toEqual([]);
    expect(knownReport.baselined).toBe(baseline.findings.length);

    // A new finding fails, and only it is reported; SARIF lists the old ones as suppressed.
    writeTree(root, { 'skills/worse/SKILL.md': '---\nname: Other\ndescription: y\n---\n' });
    const fresh = await cli(['--json', 'validate', '--no-scan', '--baseline', '.skillgarden/baseline.json'], { cwd: root });
    expect(fresh.code).toBe(1);
    const freshReport = JSON.parse(fresh.stdout) as { findings: { file: string }[] };
    expect(new Set(freshReport.findings.map((f) => f.file))).toEqual(new Set(['skills/worse/SKILL.md']));
    const sarif = await cli(['validate', '--no-scan', '--format', 'sarif', '--baseline', '.skillgarden/baseline.json'], { cwd: root });
    const log = JSON.parse(sarif.stdout) as SarifLog;
    expect(checkSarif(log)).toBe(true);
    const results = log.runs[0]?.results ?? [];
    expect(results.filter((r) => r.suppressions).length).toBe(baseline.findings.length);
    expect(
      results
        .filter((r) => !r.suppressions)
        .every((r) => r.locations[0]?.physicalLocation.artifactLocation.uri === 'skills/worse/SKILL.md'),
    ).toBe(true);
  });

  it('refuses a missing or malformed baseline with exit 2', async () => {
    const root = library();
    expect((await cli(['validate', '--baseline', 'nope.json'], { cwd: root })).code).toBe(2);
    writeFileSync(join(root, 'bad.json'), '{"version": 2}');
    const bad = await cli(['validate', '--baseline', 'bad.json'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json is not a usable baseline/);
  });
});

describe('validate --fix', () => {
  const broken =
    '\uFEFF---\r\nname: old-name # keep this comment\r\ndescription: Does fixme things. Use when fixme is needed.\r\n---\r\n# Fixme\r\n\r\nSteps.\r\n';

  it('shows each fix as a diff, applies them as one commit, and the fixed library validates clean of them', async () => {
    const repo = repoWith({ 'skills/fixme/SKILL.md': broken, 'skills/good/SKILL.md': skillText('good') });
    const dry = await cli(['validate', '--no-scan', '--fix', '--dry-run'], { cwd: repo });
    expect(dry.stderr).toContain('--- a/skills/fixme/SKILL.md');
    expect(dry.stderr).toContain('-name: old-name # keep this comment\\r');
    expect(dry.stderr).toContain('+name: fixme # keep this comment');
    expect(subjects(repo)).toHaveLength(1);

    const run = await cli(['--json', 'validate', '--no-scan', '--fix'], { cwd: repo, env: { SKILLGARDEN_BACKEND: 'system-git' } });
    expect(run.stderr).toMatch(/fixed 1 file\(s\) in commit/);
    expect(subjects(repo)).toEqual(['skill(edit): fixme — validate --fix: bom, crlf, name-mismatch', 'initial library']);
    const fixed = readFileSync(join(repo, 'skills/fixme/SKILL.md'), 'utf8');
    expect(fixed).toBe(
      '---\nname: fixme # keep this comment\ndescription: Does fixme things. Use when fixme is needed.\n---\n# Fixme\n\nSteps.\n',
    );
    expect(git(repo, 'show', '--stat', '--format=', 'HEAD').trim()).toMatch(/^skills\/fixme\/SKILL\.md \| +\d+/);
    const report = JSON.parse(run.stdout) as { findings: { code: string }[] };
    expect(report.findings.map((f) => f.code)).toEqual([]);
    expect(git(repo, 'status', '--porcelain')).toBe('');

    // Round trip: a second --fix finds nothing and commits nothing.
    const again = await cli(['validate', '--no-scan', '--fix'], { cwd: repo });
    expect(again.stderr).toContain('nothing to fix');
    expect(subjects(repo)).toHaveLength(2);
  });

  it('leaves a file with uncommitted edits alone', async () => {
    const repo = repoWith({ 'skills/fixme/SKILL.md': broken });
    writeFileSync(join(repo, 'skills/fixme/SKILL.md'), `${broken}more\r\n`);
    const run = await cli(['validate', '--no-scan', '--fix'], { cwd: repo });
    expect(run.stderr).toMatch(/not fixed: skills\/fixme\/SKILL\.md has uncommitted changes/);
    expect(subjects(repo)).toHaveLength(1);
  });
});
