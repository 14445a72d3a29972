import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { DetectReport } from '../../src/core/patterns/types.js';
import { runDetect } from '../../src/services/detect.js';
import { runValidate } from '../../src/services/validate.js';
import { corpusTranscriptsRoot, describeFullCorpus } from '../helpers/corpus.js';

const root = corpusTranscriptsRoot;
const schemaPath = fileURLToPath(new URL('../../schemas/detect-report.schema.json', import.meta.url));
const validateReport = new Ajv2020.default({ strict: true }).compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);

function contains(tools: readonly string[], sequence: readonly string[]): boolean {
  for (let i = 0; i + sequence.length <= tools.length; i += 1) {
    if (sequence.every((token, j) => tools[i + j] === token)) return true;
  }
  return false;
}

function expectValid(report: DetectReport): void {
  const valid = validateReport(JSON.parse(JSON.stringify(report)));
  expect(validateReport.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describeFullCorpus(
  'runDetect on the real corpus',
  () => {
    it('finds find_file → open → edit across at least 3 SWE-agent sessions', async () => {
      const report = await runDetect({
        transcripts: ['SWE-agent__SWE-agent/**/*.traj'],
        cwd: root,
      });
      expect(report.sessions).toBe(16);
      const found = report.patterns.filter((p) => contains(p.tools, ['find_file', 'open', 'edit']));
      expect(Math.max(...found.map((p) => p.sessions))).toBeGreaterThanOrEqual(3);
      expectValid(report);
    });

    it('finds Read → Edit → Bash across Claude Code sessions', async () => {
      const claude = ['marot__spotter', 'DRMacIver__claude-reliability', 'daaain__claude-code-log'];
      const report = await runDetect({
        transcripts: claude,
        cwd: root,
        refine: false,
      });
      expect(report.patterns.find((p) => p.tools.join() === 'Read,Edit,Bash')?.sessions).toBe(4);
      expect(report.skipped).toContainEqual({
        file: 'daaain__claude-code-log/test/test_data/edge_cases.jsonl',
        reason: 'JSON lines that are not objects',
        count: 3,
        lines: [13, 15, 16],
      });
      const refined = await runDetect({ transcripts: claude, cwd: root });
      expect(refined.patterns.some((p) => p.tools.some((t) => t.startsWith('Bash:')))).toBe(true);
    });

    it('reads the whole corpus into a report that matches its schema, with a draft per new pattern', async () => {
      const report = await runDetect({ transcripts: ['.'], cwd: root });
      expect(report.files).toBe(45);
      expect(report.sessions).toBe(44);
      expect(report.calls).toBe(980);
      expect(report.uses.map((u) => u.skill)).toContain('handgemacht:create-beads');
      expect(report.patterns.length).toBeGreaterThan(0);
      const drafted = report.patterns.filter((p) => p.draft !== undefined);
      // A few strong drafts, not one per pattern; every other pattern says why it has none.
      expect(drafted.length).toBeLessThanOrEqual(5);
      for (const pattern of drafted) expect(pattern.draft?.text).toContain(`fingerprint: ${pattern.fingerprint}`);
      for (const pattern of report.patterns.filter((p) => p.draft === undefined))
        expect(pattern.reason ?? pattern.collapsedInto ?? pattern.coveredBy).toBeTruthy();
      // The corpus sessions come from unrelated projects: no two of its procedures serve one task people asked for.
      expect(report.patterns.find((p) => p.tools.join() === 'str_replace_editor,finish')?.reason).toMatch(/only reads, searches, edits/);
      // Reading, editing and committing is how any task ends: a habit, not a procedure.
      expect(report.patterns.find((p) => p.tools.join() === 'Read,Edit,Bash:git')?.reason).toMatch(/working habit/);
      expectValid(report);
      if (drafted.length === 0) return;
      const library = mkdtempSync(join(tmpdir(), 'sg-drafts-'));
      try {
        for (const pattern of drafted) {
          mkdirSync(join(library, 'skills', pattern.draft?.name ?? ''), {
            recursive: true,
          });
          writeFileSync(join(library, 'skills', pattern.draft?.name ?? '', 'SKILL.md'), pattern.draft?.text ?? '');
        }
        const validation = runValidate({ cwd: library, profile: 'spec' });
        expect(validation.skills).toBe(drafted.length);
        expect(validation.findings).toEqual([]);
      } finally {
        rmSync(library, { recursive: true, force: true });
      }
    });
  },
  corpusTranscriptsRoot,
);

describe('runDetect on generated transcripts', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sg-detect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const line = (session: string, tool: string, args: object = {}) => JSON.stringify({ session, tool, args });
  const sessions = ['s1', 's2', 's3', 's4'].map((s) =>
    [
      JSON.stringify({ session: s, user: `Please rename the ${s} option and update the tests` }),
      line(s, 'Grep', { pattern: 'x' }),
      line(s, 'Read', { file_path: 'a' }),
      line(s, 'Edit', { file_path: 'a' }),
      // A project script names the procedure: test → edit → test alone is a habit, never drafted (draft.test.ts).
      line(s, 'Bash', { command: 'npm run docs:gen && npm test' }),
    ].join('\n'),
  );
  writeFileSync(join(dir, 'a.jsonl'), `${sessions.slice(0, 2).join('\n')}\n${line('s1', 'Skill', { skill: 'deploy' })}\n`);
  writeFileSync(join(dir, 'b.jsonl'), `${sessions.slice(2).join('\n')}\nnot json\n`);

  it('mines, drafts and reports skips with paths relative to cwd', async () => {
    const report = await runDetect({
      transcripts: ['*.jsonl', 'missing/*.jsonl'],
      cwd: dir,
    });
    expect(report).toMatchObject({ files: 2, sessions: 4, calls: 17 });
    expect(report.patterns.map((p) => [p.tools, p.sessions])).toEqual([[['Grep', 'Read', 'Edit', 'Bash:npm'], 4]]);
    expect(report.patterns[0]?.draft?.name).toBe('rename-option-update');
    expect(report.patterns[0]?.draft?.text).toContain('4. Run `npm run docs:gen`, then `npm test` with `Bash`, until the tests pass.');
    expect(report.skipped).toEqual([
      {
        file: 'missing/*.jsonl',
        reason: 'no transcript files match',
        count: 1,
      },
      { file: 'b.jsonl', reason: 'lines that are not JSON', count: 1, lines: [11] },
    ]);
    expect(report.uses).toEqual([{ skill: 'deploy', session: 's1' }]);
    expectValid(report);
  });

  it('never proposes a pattern twice: drafts of one run cover the same patterns in the next', async () => {
    const first = await runDetect({ transcripts: ['.'], cwd: dir });
    const skills = join(dir, 'skills');
    for (const pattern of first.patterns) {
      mkdirSync(join(skills, pattern.draft?.name ?? 'x'), { recursive: true });
      writeFileSync(join(skills, pattern.draft?.name ?? 'x', 'SKILL.md'), pattern.draft?.text ?? '');
    }
    const second = await runDetect({
      transcripts: ['*.jsonl'],
      cwd: dir,
      skillsDir: 'skills',
    });
    expect(second.patterns.map((p) => [p.coveredBy, p.draft])).toEqual([['rename-option-update', undefined]]);
  });

  it('reads skillsDir as the one discovery reads a root: an archived skill covers nothing', async () => {
    const first = await runDetect({ transcripts: ['.'], cwd: dir });
    const draft = first.patterns[0]?.draft;
    mkdirSync(join(dir, 'lib/.archive', draft?.name ?? 'x'), { recursive: true });
    writeFileSync(join(dir, 'lib/.archive', draft?.name ?? 'x', 'SKILL.md'), draft?.text ?? '');
    const second = await runDetect({ transcripts: ['*.jsonl'], cwd: dir, skillsDir: 'lib' });
    expect(draft?.name).toBe('rename-option-update');
    expect(second.patterns.map((p) => p.coveredBy)).toEqual([undefined]);
    expect(second.patterns[0]?.draft?.name).toBe(draft?.name);
  });

  it('honours minSessions and the refine off switch', async () => {
    const report = await runDetect({
      transcripts: ['*.jsonl'],
      cwd: dir,
      minSessions: 5,
    });
    expect(report.patterns).toEqual([]);
    const plain = await runDetect({
      transcripts: ['*.jsonl'],
      cwd: dir,
      refine: false,
    });
    expect(plain.patterns[0]?.tools).toEqual(['Grep', 'Read', 'Edit', 'Bash']);
  });
});
