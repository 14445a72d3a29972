import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSkillgardenError } from '../../../src/core/errors.js';
import {
  actors,
  buildCommitMessage,
  parseCommitMessage,
  parseTrailers,
  readLedgerTrailers,
  skillActions,
  sources,
  type CommitMessageParts,
  type LedgerTrailers,
} from '../../../src/core/ledger/trailers.js';
import { gitParse, renderLikeGit } from './git-trailers.js';

const value = fc.stringMatching(/^[^\s\r\n](?:[^\r\n]{0,20}[^\s\r\n])?$/);
const commitId = fc.stringMatching(/^[0-9a-f]{40}$/);
const ledgerTrailers: fc.Arbitrary<LedgerTrailers> = fc.record(
  {
    action: fc.constantFrom(...skillActions),
    skills: fc.array(value, { maxLength: 4 }),
    actor: fc.constantFrom(...actors),
    source: fc.constantFrom(...sources),
    run: value,
    reverts: fc.array(commitId, { maxLength: 2 }),
  },
  { requiredKeys: ['skills', 'actor', 'reverts'] },
);
const bodyLine = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('Key: v', '', '# c', '  folded', 'Signed-off-by: x'));
const parts: fc.Arbitrary<CommitMessageParts> = fc.record(
  {
    subject: value.filter((s) => !s.startsWith('---')),
    body: fc
      .array(
        bodyLine.map((l) => l.replace(/[\r\n]/g, '')),
        { maxLength: 5 },
      )
      .map((ls) => ls.join('\n'))
      .filter((b) => !/^---(\s|$)/m.test(b) && !b.includes('# ------------------------ >8')),
    trailers: ledgerTrailers,
  },
  { requiredKeys: ['subject', 'trailers'] },
);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isSkillgardenError(error) ? error.code : 'not a SkillgardenError';
  }
  return undefined;
}

describe('buildCommitMessage', () => {
  it('writes the design example', () => {
    const message = buildCommitMessage({
      subject: 'skill(patch): deploy-checklist — fix the rollback step',
      trailers: {
        action: 'patch',
        skills: ['deploy-checklist'],
        actor: 'agent',
        source: 'background',
        run: '2026-11-29T23-00-00Z-3f9a',
        reverts: [],
      },
    });
    expect(message).toBe(
      'skill(patch): deploy-checklist — fix the rollback step\n\n' +
        'Skill-Action: patch\nSkill-Name: deploy-checklist\nSkill-Actor: agent\nSkill-Source: background\nCurator-Run: 2026-11-29T23-00-00Z-3f9a\n',
    );
  });

  it('keeps the order Skill-Action, Skill-Name…, Skill-Actor, Skill-Source, Curator-Run, Reverts', () => {
    const id = 'a'.repeat(40);
    const message = buildCommitMessage({
      subject: 's',
      body: 'why',
      trailers: { action: 'rollback', skills: ['b', 'a'], actor: 'curator', source: 'foreground', run: 'r', reverts: [id] },
    });
    expect(parseTrailers(message).map((t) => t.key)).toEqual([
      'Skill-Action',
      'Skill-Name',
      'Skill-Name',
      'Skill-Actor',
      'Skill-Source',
      'Curator-Run',
      'Reverts',
    ]);
    expect(message).toContain('s\n\nwhy\n\nSkill-Action');
  });

  it.each([
    ['a newline in a skill name', { skills: ['a\nb'] }, 'ledger/bad-trailer-value'],
    ['a carriage return in a run id', { run: 'r\r' }, 'ledger/bad-trailer-value'],
    ['an empty skill name', { skills: [''] }, 'ledger/bad-trailer-value'],
    ['a padded skill name', { skills: [' a'] }, 'ledger/bad-trailer-value'],
    ['a short commit id', { reverts: ['abc123'] }, 'ledger/bad-trailer-value'],
    ['an unknown actor', { actor: 'robot' as never }, 'ledger/bad-trailer-value'],
    ['an unknown action', { action: 'explode' as never }, 'ledger/bad-trailer-value'],
  ])('rejects %s', (_name, override, code) => {
    const trailers: LedgerTrailers = { skills: ['a'], actor: 'user', reverts: [], ...override };
    expect(codeOf(() => buildCommitMessage({ subject: 's', trailers }))).toBe(code);
  });

  it.each([
    ['a two-line subject', { subject: 'a\nb' }, 'ledger/bad-subject'],
    ['an empty subject', { subject: '  ' }, 'ledger/bad-subject'],
    ['a divider subject', { subject: '--- x' }, 'ledger/bad-subject'],
    ['a divider in the body', { body: 'text\n---\nmore' }, 'ledger/bad-body'],
    ['a scissors line in the body', { body: '# ------------------------ >8 ------------------------' }, 'ledger/bad-body'],
  ])('rejects %s', (_name, override, code) => {
    const message = { subject: 's', trailers: { skills: [], actor: 'user' as const, reverts: [] }, ...override };
    expect(codeOf(() => buildCommitMessage(message))).toBe(code);
  });

  it('accepts a Markdown rule written with more dashes or asterisks', () => {
    expect(
      codeOf(() => buildCommitMessage({ subject: 's', body: '----\n***', trailers: { skills: [], actor: 'user', reverts: [] } })),
    ).toBeUndefined();
  });
});

describe('readLedgerTrailers', () => {
  it('counts a message without Skill-* trailers as user', () => {
    expect(readLedgerTrailers(parseTrailers('Fix typo\n\nSigned-off-by: A <a@b>\n'))).toEqual({ skills: [], actor: 'user', reverts: [] });
    expect(readLedgerTrailers([])).toEqual({ skills: [], actor: 'user', reverts: [] });
  });

  it('matches keys in any case and ignores unknown values', () => {
    const trailers = parseTrailers('S\n\nskill-action: PATCH\nSKILL-NAME: a\nskill-name: b\nSkill-Actor: agent\nSkill-Source: nowhere\n');
    expect(readLedgerTrailers(trailers)).toEqual({ skills: ['a', 'b'], actor: 'agent', reverts: [] });
  });

  it('lets the last of a repeated single-valued key win', () => {
    expect(
      readLedgerTrailers([
        { key: 'Skill-Actor', value: 'agent' },
        { key: 'Skill-Actor', value: 'curator' },
      ]).actor,
    ).toBe('curator');
  });
});

describe('parseCommitMessage', () => {
  it('splits subject, body and trailers of a squash commit', () => {
    const message = 'Patch deploy (#12)\n\n* one\n\n* two\n\nSkill-Action: patch\nSkill-Name: deploy\nSkill-Actor: agent\n';
    expect(parseCommitMessage(message)).toEqual({
      subject: 'Patch deploy (#12)',
      body: '* one\n\n* two',
      trailers: { action: 'patch', skills: ['deploy'], actor: 'agent', reverts: [] },
    });
  });

  it('reads a commit message past a --- line, as git log does', () => {
    const message = 'S\n\nbody\n---\nmore\n\nSkill-Name: a\n';
    expect(parseCommitMessage(message).trailers.skills).toEqual(['a']);
    expect(parseTrailers(message)).toEqual([]);
  });

  it('reads a plain message as a user commit with its body', () => {
    expect(parseCommitMessage('Fix typo\r\n\r\nIn the intro.\r\n')).toEqual({
      subject: 'Fix typo',
      body: 'In the intro.',
      trailers: { skills: [], actor: 'user', reverts: [] },
    });
  });
});

describe('parse ∘ build', () => {
  it('is the identity on valid trailers', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const message = buildCommitMessage(p);
        expect(readLedgerTrailers(parseTrailers(message))).toEqual(p.trailers);
        const parsed = parseCommitMessage(message);
        expect(parsed.trailers).toEqual(p.trailers);
        expect(parsed.subject).toBe(p.subject);
        expect(parsed.body).toBe(
          (p.body ?? '')
            .replace(/^(?:[ \t]*\n)+/, '')
            .replace(/(?:\n[ \t]*)+$/, '')
            .replace(/^[ \t]+$/, ''),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('writes messages git reads the same way', () => {
    fc.assert(
      fc.property(parts, (p) => {
        const message = buildCommitMessage(p);
        expect(renderLikeGit(parseTrailers(message))).toBe(gitParse(message));
      }),
      { numRuns: 60 },
    );
  });
});
