import { describe, expect, it } from 'vitest';
import { parseNameStatusLog } from '../../src/ledger/history-walk-system.js';

describe('parseNameStatusLog', () => {
  it('reads commits, messages with blank lines, and (status, path) pairs', () => {
    const output =
      '\x01aaa\0p1 p2\x001800000000\0Subject\n\nSkill-Name: x\n\0\nA\0skills/x/SKILL.md\0M\0odd name\twith tab\0T\0link\0' +
      '\x01bbb\0\x001800000060\0Root\n\0';
    expect(parseNameStatusLog(output)).toEqual([
      {
        oid: 'aaa',
        parents: ['p1', 'p2'],
        time: 1800000000,
        message: 'Subject\n\nSkill-Name: x\n',
        changes: [
          { status: 'added', path: 'skills/x/SKILL.md' },
          { status: 'modified', path: 'odd name\twith tab' },
          { status: 'modified', path: 'link' },
        ],
      },
      { oid: 'bbb', parents: [], time: 1800000060, message: 'Root\n', changes: [] },
    ]);
  });

  it('reads raw records: the blob of an added or deleted SKILL.md', () => {
    const a = 'a'.repeat(40);
    const z = '0'.repeat(40);
    const output =
      `\x01ccc\0p1\x001800000000\0Move\n\0\n:000000 100644 ${z} ${a} A\0skills/x/SKILL.md\0` +
      `:100644 000000 ${a} ${z} D\0old/x/SKILL.md\0:100644 100644 ${a} ${'b'.repeat(40)} M\0skills/x/SKILL.md\0` +
      `:000000 100644 ${z} ${a} A\0skills/x/notes.md\0`;
    expect(parseNameStatusLog(output)[0]?.changes).toEqual([
      { status: 'added', path: 'skills/x/SKILL.md', blob: a },
      { status: 'deleted', path: 'old/x/SKILL.md', blob: a },
      { status: 'modified', path: 'skills/x/SKILL.md' },
      { status: 'added', path: 'skills/x/notes.md' },
    ]);
  });
});
