import { describe, expect, it } from 'vitest';
import { findUnsafePath, maxComponentBytes, tempNameOverheadBytes } from '../../src/core/safe-path.js';
import { supportPathProblem } from '../../src/core/manage/support-path.js';

const longest = maxComponentBytes - tempNameOverheadBytes;

describe('findUnsafePath', () => {
  it.each([
    ['skills/a/references/git~1/config', 'path/dot-git'],
    ['skills/a/references/GIT~2/config', 'path/dot-git'],
    ['skills/a/.g\u200cit/config', 'path/dot-git'],
    ['skills/a/.gi\ufefft/config', 'path/dot-git'],
    ['skills/a/.GiT/config', 'path/dot-git'],
    ['skills/a/.git./config', 'path/dot-git'],
    ['skills/a/.git . /config', 'path/dot-git'],
    ['skills/a/.git::$INDEX_ALLOCATION/config', 'path/dot-git'],
    ['skills/a/.gitmodules', 'path/git-file'],
    ['skills/a/.GITMODULES', 'path/git-file'],
    ['skills/a/gitmod~1', 'path/git-file'],
    ['skills/a/gi7eba~3', 'path/git-file'],
    ['skills/a/file\u0001', 'path/control-character'],
    ['skills/a/line\nbreak', 'path/control-character'],
    ['skills/a/\u007f', 'path/control-character'],
    ['skills/a/CON', 'path/windows-reserved'],
    ['skills/a/nul.txt', 'path/windows-reserved'],
    ['skills/a/Aux .md', 'path/windows-reserved'],
    ['skills/a/COM1', 'path/windows-reserved'],
    ['skills/a/lpt9.log', 'path/windows-reserved'],
    ['skills/a/conin$', 'path/windows-reserved'],
    ['skills/a/a:b', 'path/windows-character'],
    ['skills/a/file.md::$DATA', 'path/windows-character'],
    ['skills/a/what?', 'path/windows-character'],
    ['skills/a/x*y', 'path/windows-character'],
    ['skills/a/"q"', 'path/windows-character'],
    ['skills/a/<a>', 'path/windows-character'],
    ['skills/a/a|b', 'path/windows-character'],
    ['skills/a\\b', 'path/windows-character'],
    ['skills/a/notes.', 'path/trailing-dot-or-space'],
    ['skills/a/notes ', 'path/trailing-dot-or-space'],
    ['skills/a/zw\u200dj', 'path/ignorable-code-point'],
    ['skills/a/\ud800', 'path/not-unicode'],
    [`skills/a/${'x'.repeat(longest + 1)}`, 'path/too-long'],
    [`skills/a/${'é'.repeat(Math.floor(longest / 2) + 1)}`, 'path/too-long'],
    ['', 'path/empty'],
    ['/etc/passwd', 'path/absolute'],
    ['C:/x', 'path/absolute'],
    ['skills//a', 'path/dot-part'],
    ['skills/../a', 'path/dot-part'],
    ['skills/./a', 'path/dot-part'],
  ])('refuses %j (%s)', (path, code) => {
    const problem = findUnsafePath(path);
    expect(problem?.code).toBe(code);
    expect(problem?.reason.length).toBeGreaterThan(10);
  });

  it.each([
    'skills/a/SKILL.md',
    'skills/a/references/.github-notes.md',
    'skills/a/.gitignore',
    'skills/a/console.md',
    'skills/a/com10',
    'skills/a/nullable.ts',
    'skills/a/git~config',
    'skills/a/références/日本語.md',
    'skills/a/emoji-😀.md',
    `skills/a/${'x'.repeat(longest)}`,
  ])('accepts %j', (path) => {
    expect(findUnsafePath(path)).toBeUndefined();
  });

  it('refuses git-read files as links only, .gitmodules always', () => {
    expect(findUnsafePath('skills/a/.gitignore', { symlink: true })?.code).toBe('path/git-file');
    expect(findUnsafePath('skills/a/.mailmap', { symlink: true })?.code).toBe('path/git-file');
    expect(findUnsafePath('skills/a/.gitattributes', { symlink: true })?.code).toBe('path/git-file');
    expect(findUnsafePath('skills/a/notes.md', { symlink: true })).toBeUndefined();
    // A folder named like one is only a folder.
    expect(findUnsafePath('skills/a/.gitignore/x', { symlink: true })).toBeUndefined();
  });

  it('is what manage and MCP check support files with', () => {
    expect(supportPathProblem('references/git~1/config')).toMatch(/\.git on Windows/);
    expect(supportPathProblem('references/CON.md')).toMatch(/device name/);
    expect(supportPathProblem('references/ok.md')).toBeUndefined();
  });
});
