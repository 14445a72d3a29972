import { describe, expect, it } from 'vitest';
import { mergeVaryingDetails } from '../../../src/core/patterns/vary.js';

describe('the argument that varies across sessions becomes a placeholder', () => {
  it.each<[string, Array<[string, number]>, Array<[string, number]>]>([
    [
      'a version',
      [
        ['npm version 2.4.0', 1],
        ['npm version 2.4.1', 1],
        ['npm version 2.5.0', 1],
      ],
      [['npm version <version>', 3]],
    ],
    [
      'a bump keyword',
      [
        ['npm version patch', 2],
        ['npm version minor', 1],
      ],
      [['npm version <version>', 3]],
    ],
    [
      'a flag value',
      [
        ['kubectl --context qa apply -f app.yaml', 2],
        ['kubectl --context prod apply -f app.yaml', 1],
      ],
      [['kubectl --context <context> apply -f app.yaml', 3]],
    ],
    [
      'a quoted message',
      [
        ['alembic revision -m "add email"', 1],
        ['alembic revision -m "add status"', 1],
      ],
      [['alembic revision -m "<message>"', 2]],
    ],
    [
      'a file',
      [
        ['pytest tests/a.py 2>&1', 1],
        ['pytest tests/b.py 2>&1', 1],
      ],
      [['pytest <path> 2>&1', 2]],
    ],
  ])('%s', (_, counts, merged) => {
    expect(mergeVaryingDetails(counts)).toEqual(merged);
  });

  it('keeps apart commands that are not one step: another program, another shape, or too much varying', () => {
    const apart: Array<[string, number]> = [
      ['npm test', 2],
      ['git commit -m "x" --amend', 1],
      ['git pull origin main', 1],
      ['git push origin main', 1],
      ['npm publish', 1],
    ];
    expect(mergeVaryingDetails(apart)).toEqual(apart);
  });
});
