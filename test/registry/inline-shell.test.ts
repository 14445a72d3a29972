import { describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../src/registry/index.js';
import { runInlineShell } from '../../src/registry/inline-shell.js';
import { skillText, tempDir, writeTree } from '../helpers/tmp.js';

describe('inline shell', () => {
  it('is off by default: the text stays as written', async () => {
    const dir = tempDir();
    writeTree(dir, { 'skills/a/SKILL.md': skillText('a', '', 'Now: !`echo ran`\n') });
    const registry = await SkillRegistry.open({ repoDir: dir });
    const result = await registry.load('a', { sessionId: 's' });
    expect(result.status === 'inline' && result.content).toContain('Now: !`echo ran`');
  });

  it('runs commands in the skill folder when enabled', async () => {
    const dir = tempDir();
    writeTree(dir, { 'skills/a/SKILL.md': skillText('a', '', 'Here: !`basename "$PWD"`; !`echo two`\n') });
    const registry = await SkillRegistry.open({ repoDir: dir, inlineShell: { enabled: true } });
    const result = await registry.load('a', { sessionId: 's' });
    expect(result.status === 'inline' && result.content).toContain('Here: a; two');
  });

  it.each([
    ['a timeout', 'sleep 5', { timeoutMs: 200 }, /stopped after 200 ms/],
    ['an output cap', 'yes | head -c 100000', { maxOutputBytes: 1000 }, /output cut at 1000 bytes/],
    ['a failing command', 'exit 3', {}, /failed/],
  ])('bounds %s', async (_, command, limits, expected) => {
    const text = await runInlineShell(`x !\`${command}\` y`, tempDir(), { enabled: true, ...limits });
    expect(text).toMatch(expected);
    expect(text.length).toBeLessThan(2_000);
  });
});
