import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseState } from '../../src/core/config/state.js';
import { describeSystemError, SkillgardenError } from '../../src/core/errors.js';
import { runDoctor } from '../../src/services/doctor.js';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

/** A pid no process has (above Linux's default pid_max of 4,194,304). */
const gone = 4_999_999;

/** An errno error as Node makes one: code, syscall, path. */
function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path, errno: -1 });
}

describe('faults in plain words', () => {
  it.each([
    ['ENOSPC', /^the disk is full at \/repo\/\.git\/skillgarden\/runs\/x\/REPORT\.md \(write\) \[ENOSPC\]: free some space/],
    ['EROFS', /^the file system is read-only at .* \[EROFS\]: run the command where the repository is writable/],
    ['EACCES', /^permission denied at .* \[EACCES\]: check who owns the path/],
  ])('%s is named, with the path and what to do', (code, words) => {
    const error = errno(code, 'write', '/repo/.git/skillgarden/runs/x/REPORT.md');
    expect(describeSystemError(error)).toMatch(words);
    // Wrapped as the cause of one of ours, it is still found.
    expect(describeSystemError(new SkillgardenError('store/write', 'could not write the report', { cause: error }))).toMatch(words);
  });

  it('any other error is not a system fault', () => {
    expect(describeSystemError(new Error('boom'))).toBeUndefined();
    expect(describeSystemError(errno('ENOENT', 'open', '/x'))).toBeUndefined();
  });

  it('a dry run does not fail where .git/skillgarden cannot be made (a link to nowhere, as a read-only mount may leave it)', async () => {
    const dir = repoWith({ 'skills/alpha/SKILL.md': skillText('alpha') });
    symlinkSync('/nonexistent/skillgarden-read-only', join(dir, '.git', 'skillgarden'));
    const run = await cli(['curate', '--dry-run'], { cwd: dir });
    expect(run.stderr).not.toMatch(/unexpected failure|\n\s+at /);
    expect(run.stderr).toContain('the report was not saved');
    expect(run.code, run.stderr).toBe(0);
  });

  it("doctor reports an atomic write's temp file a killed process left, and --fix removes it; a person's own .tmp file is left alone", async () => {
    const dir = repoWith({ 'skills/alpha/SKILL.md': skillText('alpha'), 'skills/alpha/notes.2024.draft.tmp': 'mine\n' });
    const runDir = join(dir, '.git', 'skillgarden', 'runs', 'r1');
    mkdirSync(runDir, { recursive: true });
    const left = join(runDir, `REPORT.md.${gone}.0a1b2c3d.tmp`);
    writeFileSync(left, '# half a rep');
    const inTree = join(dir, 'skills', 'alpha', `SKILL.md.${gone}.deadbeef.tmp`);
    writeFileSync(inTree, '---\nname: al');
    const report = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    expect(
      report.findings
        .filter((f) => f.kind === 'temp-file')
        .map((f) => f.path)
        .sort(),
    ).toEqual([left, inTree].sort());
    await runDoctor(dir, { fix: true, skillsDir: 'skills' });
    expect(existsSync(left) || existsSync(inTree)).toBe(false);
    expect(existsSync(join(dir, 'skills', 'alpha', 'notes.2024.draft.tmp'))).toBe(true);
  });

  it('a corrupt state.json is a finding with its file and line, in doctor and in every command that reads it; no stack trace', async () => {
    const text = '{\n  "version": 1,\n  "skills": {\n    "alpha": {"state": "stale",\n';
    const parsed = parseState(text, '.skillgarden/state.json');
    expect(parsed.findings).toEqual([
      expect.objectContaining({
        code: 'state/invalid',
        file: '.skillgarden/state.json',
        line: 5,
        column: 1,
        message: expect.stringContaining('not JSON at line 5, column 1'),
      }),
    ]);
    expect(parseState('{\n  "version": 1,\n  oops\n}\n', 'state.json').findings[0]).toMatchObject({ line: 3, column: 3 });
    const dir = repoWith({ 'skills/alpha/SKILL.md': skillText('alpha'), '.skillgarden/state.json': text });
    const report = await runDoctor(dir, { fix: false, skillsDir: 'skills' });
    expect(report.findings).toContainEqual(expect.objectContaining({ kind: 'corrupt-state', line: 5, fixable: false }));
    const run = await cli(['curate', '--dry-run'], { cwd: dir });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('.skillgarden/state.json: not JSON at line 5, column 1');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
