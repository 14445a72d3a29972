import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stateChanges } from '../../../src/core/config/state-changes.js';
import { recordFileName, recordName, recordNameAt, recordPath, recordShard } from '../../../src/core/config/state-files.js';
import { emptyState, type CuratorState } from '../../../src/core/config/state.js';

describe("a skill's record file name", () => {
  it.each([
    ['pdf', 'pdf.json'],
    ['pdf-2.v1_x', 'pdf-2.v1_x.json'],
    ['plugin:skill', 'plugin%3Askill.json'],
    ['Zeta', '%5Aeta.json'],
    ['é-skill', '%C3%A9-skill.json'],
    ['x/y', 'x%2Fy.json'],
    ['..', '%2E..json'],
    ['.hidden', '%2Ehidden.json'],
    ['a%20b', 'a%2520b.json'],
    ['con', '%63on.json'],
    ['lpt1', '%6Cpt1.json'],
    ['con-x', 'con-x.json'],
  ])('%s is %s, and reads back', (name, file) => {
    expect(recordFileName(name)).toBe(file);
    expect(recordName(file)).toBe(name);
    expect(recordPath(name)).toBe(`.skillgarden/state/${recordShard(name)}/${file}`);
    expect(recordNameAt(recordPath(name))).toBe(name);
    expect(recordShard(name)).toMatch(/^[0-9a-f]{2}$/);
  });

  it('is reversible, safe on every file system, and no two names share one (nor on a case-insensitive disk)', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }), fc.string({ minLength: 1, maxLength: 20 }), (a, b) => {
        const file = recordFileName(a);
        expect(recordName(file)).toBe(a);
        expect(file).toMatch(/^(?:[a-z0-9_-]|%[0-9A-F]{2})(?:[a-z0-9_.-]|%[0-9A-F]{2})*\.json$/);
        expect(file).not.toMatch(/^(con|prn|aux|nul|com\d|lpt\d)\.json$/);
        if (a !== b) expect(recordFileName(a).toLowerCase()).not.toBe(recordFileName(b).toLowerCase());
      }),
    );
  });

  it.each(['Pdf.json', 'plugin%3askill.json', 'a%2.json', 'pdf.txt', '.json', 'con.json', 'a:b.json'])(
    '%s is not a name the writer makes: no record',
    (file) => expect(recordName(file)).toBeUndefined(),
  );

  it('is in the folder its name hashes to, and nowhere else', () => {
    expect(recordShard('pdf')).toBe('ce'); // sha1('pdf') = ce9f44bc…, as `printf pdf | sha1sum` says
    expect(recordNameAt('.skillgarden/state/ce/pdf.json')).toBe('pdf');
    expect(recordNameAt('.skillgarden/state/00/pdf.json')).toBeUndefined();
    expect(recordNameAt('.skillgarden/state/pdf.json')).toBeUndefined();
    expect(recordNameAt('.skillgarden/state/ce/x/pdf.json')).toBeUndefined();
  });
});

describe('stateChanges', () => {
  const v2 = (skills: CuratorState['skills'], extra: Partial<CuratorState> = {}): CuratorState => ({ ...emptyState(), skills, ...extra });

  it('writes the records that differ and state.json only when a run-wide field does', () => {
    const before = v2({ a: { state: 'stale', since: 'x' }, b: { seeded_at: 'y' } });
    const after = v2({ b: { seeded_at: 'y' }, 'p:c': { state: 'stale', since: 'z' } });
    expect(stateChanges(before, after)).toEqual([
      { path: recordPath('a'), content: null },
      { path: recordPath('p:c'), content: '{\n  "state": "stale",\n  "since": "z"\n}\n' },
    ]);
    expect(stateChanges(before, { ...before, last_run_at: 't' })).toEqual([
      { path: '.skillgarden/state.json', content: '{\n  "version": 2,\n  "last_run_at": "t",\n  "rejected_proposals": []\n}\n' },
    ]);
    expect(stateChanges(before, before)).toEqual([]);
  });

  it('from the one-file layout, migrates: every record in its file, state.json without them, stray record files deleted', () => {
    const legacy: CuratorState = {
      version: 1,
      last_run_id: 'r0',
      skills: { a: { state: 'stale', since: 'x' } },
      rejected_proposals: ['f'],
    };
    const changes = stateChanges(legacy, { ...legacy, version: 2 }, [
      '.skillgarden/state.json',
      '.skillgarden/state/old.json',
      '.skillgarden/x',
    ]);
    expect(changes).toEqual([
      {
        path: '.skillgarden/state.json',
        content: '{\n  "version": 2,\n  "last_run_id": "r0",\n  "rejected_proposals": [\n    "f"\n  ]\n}\n',
      },
      { path: recordPath('a'), content: '{\n  "state": "stale",\n  "since": "x"\n}\n' },
      { path: '.skillgarden/state/old.json', content: null },
    ]);
  });
});
