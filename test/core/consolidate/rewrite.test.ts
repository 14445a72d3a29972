import { describe, expect, it } from 'vitest';
import { rewriteText } from '../../../src/core/consolidate/index.js';
import { maskText } from '../../../src/core/consolidate/guard.js';

const words = new Map([['deploy-staging', 'deploy']]);
const mapLink = (target: string) => (target.includes('staging') ? target.replace('staging', 'moved') : undefined);

describe('rewriteText', () => {
  it.each([
    ['a whole word', 'run deploy-staging now', 'run deploy now'],
    ['not inside a longer name', 'deploy-staging-extra and xdeploy-staging', 'deploy-staging-extra and xdeploy-staging'],
    ['at the end of a sentence and in a path', 'use deploy-staging. skills/deploy-staging/x', 'use deploy. skills/deploy/x'],
    ['in code', '`skillgarden load deploy-staging`', '`skillgarden load deploy`'],
    [
      'a link target whose text repeats it',
      '[references/staging.md](references/staging.md)',
      '[references/staging.md](references/moved.md)',
    ],
    ['a wrapped link target', '[x](<references/staging a.md>)', '[x](<references/moved a.md>)'],
    ['a reference definition', '[ref]: references/staging.md', '[ref]: references/moved.md'],
    [
      'names inside link targets left to the link mapping',
      '[deploy-staging](../deploy-staging/SKILL.md)',
      '[deploy](../deploy-moved/SKILL.md)',
    ],
  ])('rewrites %s', (_, input, expected) => {
    expect(rewriteText(input, { words, mapLink })).toBe(expected);
  });

  it('leaves text without mentions byte for byte', () => {
    const text = 'nothing\r\nto see [here](a.md)\n';
    expect(rewriteText(text, { words, mapLink })).toBe(text);
  });
});

describe('maskText', () => {
  it('blanks link targets, names and paths holding a name, so only those may differ', () => {
    const names = ['deploy', 'deploy-staging'];
    expect(maskText('run skills/deploy-staging/run.sh [a](x.md)', names)).toBe(
      maskText('run skills/deploy/scripts/deploy-staging-run.sh [a](y.md)', names),
    );
    expect(maskText('run deploy-staging daily', names)).not.toBe(maskText('run deploy weekly', names));
  });
});
