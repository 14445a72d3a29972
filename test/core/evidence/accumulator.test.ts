import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  askedFor,
  buildEvidenceReport,
  didProcedure,
  EvidenceAccumulator,
  listProcedureCommands,
  listSessionCommands,
  listTriggerWords,
  listWordKeys,
  type EvidenceSkillInput,
  type SkillEvidence,
} from '../../../src/core/evidence/index.js';
import { buildToolCall, defaultRefine } from '../../../src/core/patterns/shape.js';
import type { TranscriptSession } from '../../../src/core/patterns/types.js';
import { dbMigrate, oncallRotate, releaseCut } from '../../services/evidence/plant.js';

const skills: EvidenceSkillInput[] = [
  {
    name: 'release-cut',
    description: 'Cut a release of the package - bump the version, tag it and publish it to npm.',
    text: releaseCut,
    existsSince: '2026-01-01T00:00:00Z',
  },
  {
    name: 'db-migrate',
    description: "Write and apply a database migration with the project's migration tool, then check the schema.",
    text: dbMigrate,
    existsSince: '2026-01-01T00:00:00Z',
  },
  { name: 'oncall-rotate', description: 'Rotate the on-call schedule in PagerDuty and announce it in Slack.', text: oncallRotate },
];

interface SessionSpec {
  id: string;
  time?: string;
  request?: string;
  load?: string;
  commands: { command: string; error?: boolean }[];
}

/** A session as the readers make it: calls through the same normaliser, so details are the readers' heads. */
function session(spec: SessionSpec): TranscriptSession {
  const calls = spec.commands.map(({ command, error }) => {
    const call = buildToolCall('Bash', { command }, { refine: defaultRefine, ...(spec.time === undefined ? {} : { time: spec.time }) });
    return error === true ? { ...call, error: true as const } : call;
  });
  return {
    id: spec.id,
    file: `${spec.id}.jsonl`,
    format: 'claude-code',
    calls,
    uses: spec.load === undefined ? [] : [{ skill: spec.load, session: spec.id }],
    requests: spec.request === undefined ? [] : [{ text: spec.request, at: 0 }],
  };
}

const base: TranscriptSession[] = [
  session({
    id: 'a',
    time: '2026-10-01T09:00:00Z',
    request: 'Publish a new version of the package to npm',
    commands: [{ command: 'git status' }],
  }),
  session({
    id: 'b',
    time: '2026-10-02T09:00:00Z',
    commands: [{ command: 'npm version minor' }, { command: 'npm publish --access public' }],
  }),
  session({
    id: 'c',
    time: '2026-10-03T09:00:00Z',
    load: 'db-migrate',
    commands: [{ command: 'npm run migrate' }, { command: 'npm test' }],
  }),
  session({
    id: 'd',
    commands: [
      { command: 'npm run migrate:make x', error: true },
      { command: 'npm run migrate:make x' },
      { command: 'psql -c "select 1"' },
    ],
  }),
];

const unrelatedCommands = [
  'ls -la',
  'git status',
  'cat README.md',
  'npm test',
  'git diff',
  'cargo fmt',
  'rg TODO src',
  'go vet ./...',
  'git commit -m wip',
];
const unrelatedRequests = [
  'Fix the flaky parser test',
  'Why does the login page crash on Safari?',
  'Rename the helper in utils',
  'Speed up the CSV import',
];

const unrelatedSession = fc.record({
  id: fc.uuid(),
  time: fc.option(
    fc.integer({ min: Date.parse('2025-06-01T00:00:00Z'), max: Date.parse('2026-11-01T00:00:00Z') }).map((t) => new Date(t).toISOString()),
    { nil: undefined },
  ),
  request: fc.option(fc.constantFrom(...unrelatedRequests), { nil: undefined }),
  commands: fc.array(fc.record({ command: fc.constantFrom(...unrelatedCommands), error: fc.boolean() }), { minLength: 1, maxLength: 8 }),
});

function withoutOffered(skill: SkillEvidence): Omit<SkillEvidence, 'offered'> {
  const { offered: _offered, ...rest } = skill;
  return rest;
}

const options = { skills, now: '2026-11-01T00:00:00Z', minSessions: 2 };

describe('the evidence fold', () => {
  it('adding sessions that never mention a skill changes none of its figures but offered', () => {
    const before = buildEvidenceReport(base, options);
    expect(before.skills.map((s) => [s.name, s.loaded, s.missed])).toEqual([
      ['db-migrate', 1, 1],
      ['oncall-rotate', 0, 0],
      ['release-cut', 0, 2],
    ]);
    fc.assert(
      fc.property(fc.array(unrelatedSession, { maxLength: 12 }), fc.nat(), (extra, at) => {
        const mixed = [...base];
        for (const spec of extra) mixed.splice(at % (mixed.length + 1), 0, session({ ...spec, id: `x-${spec.id}` }));
        const after = buildEvidenceReport(mixed, options);
        expect(after.skills.map(withoutOffered)).toEqual(before.skills.map(withoutOffered));
        after.skills.forEach((skill, i) => expect(skill.offered).toBeGreaterThanOrEqual(before.skills[i]?.offered ?? 0));
      }),
      { numRuns: 60 },
    );
  });

  it('the indexes by command and by word find what checking every skill against every session finds', () => {
    const commands = [...unrelatedCommands, 'npm version patch', 'npm publish', 'npm run migrate', 'npm run migrate:make y', 'psql -c x'];
    const requests = [
      ...unrelatedRequests,
      'Publish a new version of the package to npm',
      'Apply the database migration and check the schema',
    ];
    const spec = fc.record({
      id: fc.uuid(),
      request: fc.option(fc.constantFrom(...requests), { nil: undefined }),
      load: fc.option(fc.constantFrom('release-cut', 'db-migrate', 'plugin:db-migrate', 'ghost'), { nil: undefined }),
      commands: fc.array(fc.record({ command: fc.constantFrom(...commands) }), { minLength: 1, maxLength: 6 }),
    });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 15 }), (specs) => {
        const sessions = specs.map(session);
        const report = buildEvidenceReport(sessions, options);
        for (const skill of skills) {
          const own = listProcedureCommands(skill.text);
          const words = listTriggerWords(skill);
          let loaded = 0;
          let missed = 0;
          for (const s of sessions) {
            if (s.uses.some((u) => u.skill.split(':').at(-1) === skill.name)) loaded += 1;
            else {
              const ran = listSessionCommands(s.calls);
              const byHand = didProcedure(own.filter((c) => ran.has(c)).length, own.length);
              const asked = s.requests.some((r) => {
                const keys = listWordKeys(r.text);
                return askedFor([...keys].filter((k) => words.has(k)).length, keys.size);
              });
              if (byHand || asked) missed += 1;
            }
          }
          const found = report.skills.find((e) => e.name === skill.name);
          expect([found?.loaded, found?.missed]).toEqual([loaded, missed]);
        }
      }),
      { numRuns: 80 },
    );
  });

  it('folds one session at a time: the report does not depend on the order sessions arrive in', () => {
    const forward = buildEvidenceReport(base, options);
    const backward = new EvidenceAccumulator(options);
    for (const s of [...base].reverse()) backward.add(s);
    expect(backward.finish()).toEqual(forward);
  });

  it('counts a session before a skill existed as not offered, unless it loaded it; a session without a time as offered', () => {
    const early = [
      session({ id: 'early', time: '2025-12-01T00:00:00Z', commands: [{ command: 'npm version patch' }, { command: 'npm publish' }] }),
      session({ id: 'early-load', time: '2025-12-02T00:00:00Z', load: 'release-cut', commands: [{ command: 'npm publish' }] }),
      session({ id: 'untimed', commands: [{ command: 'ls' }] }),
    ];
    const release = buildEvidenceReport(early, options).skills.find((s) => s.name === 'release-cut');
    expect([release?.offered, release?.loaded, release?.missed]).toEqual([2, 1, 0]);
  });
});
