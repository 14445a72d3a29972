import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { repoWith, status } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';
import { makeUpstream } from '../vendor/upstream-fixture.js';

describe('install --frozen and symbolic links in a vendored skill', () => {
  it('puts a link inside the skill back as a link; refuses, naming it, a pinned link that leads out', async () => {
    const up = makeUpstream({ 'skills/pdf/SKILL.md': skillText('pdf'), 'skills/pdf/references/forms.md': 'forms\n' });
    symlinkSync('references/forms.md', join(up.work, 'skills/pdf/FORMS.md'));
    up.publish({}, 'a link inside');
    const dir = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
    expect((await cli(['add', up.url, '--now', '2026-05-01T10:00:00Z'], { cwd: dir })).code).toBe(0);
    const link = join(dir, 'skills/pdf/FORMS.md');
    expect(readlinkSync(link)).toBe('references/forms.md');

    // Removed, then replaced by a regular file: both put back as the link git keeps.
    rmSync(join(dir, 'skills/pdf'), { recursive: true });
    const restored = await cli(['install', '--frozen'], { cwd: dir });
    expect(restored.code, restored.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(link, 'utf8')).toBe('forms\n');
    expect(status(dir)).toBe('');
    rmSync(link);
    writeFileSync(link, 'forms\n');
    expect((await cli(['install', '--frozen'], { cwd: dir })).stdout).toContain('restored pdf');
    expect(readlinkSync(link)).toBe('references/forms.md');
    expect(status(dir)).toBe('');

    // A lock pinned to a commit whose link leads out of the skill (the digest leaves links out, so it still matches).
    symlinkSync('../../../../etc/passwd', join(up.work, 'skills/pdf/secret'));
    const escaping = up.publish({}, 'a link out');
    const lockPath = join(dir, 'skills-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { skills: Record<string, { commit: string }> };
    lock.skills.pdf!.commit = escaping;
    writeFileSync(lockPath, JSON.stringify(lock, null, 2));
    rmSync(join(dir, 'skills/pdf'), { recursive: true });
    const refused = await cli(['install', '--frozen'], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('skill "pdf": secret in skills/pdf/');
    expect(refused.stderr).toContain('outside the skill');
    expect(refused.stderr).toContain('Nothing was written');
    expect(existsSync(join(dir, 'skills/pdf'))).toBe(false);
  }, 120_000);
});
