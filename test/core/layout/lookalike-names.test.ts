import { describe, expect, it } from 'vitest';
import { findLookalikeNames, nameSkeleton } from '../../../src/core/layout/lookalike-names.js';
import { openLibrary } from '../../../src/store/layout/discover-library.js';
import { repoWith } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const at = (id: string) => ({ id, path: `skills/${id}`, file: `skills/${id}/SKILL.md` });

describe('names that look alike', () => {
  it.each([
    ['a Cyrillic е in deploy', 'd\u0435ploy', 'deploy', /only by look-alike characters/],
    ['a Greek ο in docs', 'd\u03bfcs', 'docs', /only by look-alike characters/],
    ['NFD beside NFC', 'cafe\u0301', 'caf\u00e9', /only by Unicode normalization/],
  ])('%s is an error on the later one, naming both', (_, later, earlier, how) => {
    const findings = findLookalikeNames([at(earlier), at(later)]);
    expect(findings).toEqual([
      expect.objectContaining({ code: 'library/lookalike-name', severity: 'error', file: `skills/${later}/SKILL.md` }),
    ]);
    expect(findings[0]!.message).toMatch(how);
    expect(findings[0]!.message).toContain(`(skills/${earlier})`);
  });

  it('distinct names, and one name twice (library/duplicate-name reports that), are not look-alikes', () => {
    expect(findLookalikeNames([at('deploy'), at('deploy-staging'), at('docs'), at('dock')])).toEqual([]);
    expect(findLookalikeNames([at('deploy'), at('deploy')])).toEqual([]);
    expect(nameSkeleton('ＤＥＰＬＯＹ')).toBe('deploy');
  });

  it('a library holding both is told so when it is opened', () => {
    const dir = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy'), 'skills/d\u0435ploy/SKILL.md': skillText('d\u0435ploy') });
    const library = openLibrary(dir, 'skills');
    expect(library.findings.map((f) => f.code)).toContain('library/lookalike-name');
  });
});
