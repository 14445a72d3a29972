import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildTaskName, buildUniqueName } from '../../../src/core/patterns/draft-name.js';
import { draftPatterns, findCoveringSkill, resolveDraftLimits } from '../../../src/core/patterns/draft.js';
import type { MinedSession } from '../../../src/core/patterns/session-index.js';
import { isGenericSequence } from '../../../src/core/patterns/generic.js';
import { buildToolCall, defaultRefine } from '../../../src/core/patterns/shape.js';
import { findTaskWords } from '../../../src/core/patterns/task-words.js';
import type { Pattern } from '../../../src/core/patterns/types.js';
import { checkSchema } from '../../../src/core/schema/index.js';

const pattern: Pattern = {
  tools: ['Grep', 'Read', 'Edit', 'Bash:npm'],
  sessions: 3,
  confidence: 0.8,
  fingerprint: '0123456789abcdef',
};

const call = (name: string, args: Record<string, unknown>, time?: string) => buildToolCall(name, args, { refine: defaultRefine, time });

function session(id: string, request: string, test: string): MinedSession {
  return {
    id,
    file: `${id}.jsonl`,
    requests: [{ text: request, at: 0 }],
    calls: [
      call('Grep', { pattern: 'parse', path: 'src' }),
      call('Read', { file_path: 'src/parse.ts' }, '2026-10-01T10:00:00Z'),
      call('Edit', { file_path: 'src/parse.ts', old_string: 'a', new_string: 'b' }),
      call('Bash', { command: `cd app && ${test}` }, `2026-10-0${id.length}T11:00:00Z`),
    ],
  };
}

// The project's own fuzz script names the procedure; the same loop with a bare `npm test` is a habit (below).
const sessions = [
  session('a', 'Please fix the flaky parser test.', 'npm run test:fuzz -- parser'),
  session('bb', 'The parser test is flaky again, fix the flaky parser test', 'npm run test:fuzz -- parser'),
  session('ccc', 'fix the flaky parser test before the release', 'npm run test:fuzz'),
];

function frontmatterOf(text: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  return parse(match?.[1] ?? '') as Record<string, unknown>;
}

describe('task words and names', () => {
  it('finds the words people repeat, and the clause that says the task', () => {
    const words = findTaskWords(sessions.map((s) => s.requests.map((r) => r.text)));
    expect(words.nameWords).toEqual(['fix', 'flaky', 'parser']);
    expect(words.phrase).toBe('fix the flaky parser test');
    expect(buildTaskName(words.nameWords)).toBe('fix-flaky-parser');
  });

  it('finds no task when the sessions ask for different things', () => {
    expect(findTaskWords([['deploy the site'], ['rename a column'], ['write a poem']]).words).toEqual([]);
  });

  it('numbers a name that is taken, within 64 characters', () => {
    expect(buildUniqueName('read-edit', new Set(['read-edit', 'read-edit-2']))).toBe('read-edit-3');
    expect(buildUniqueName('x'.repeat(64), new Set(['x'.repeat(64)])).length).toBeLessThanOrEqual(64);
  });

  it.each([
    [['Glob', 'Read'], true],
    [['Read', 'Edit'], true],
    [['str_replace_editor', 'finish'], true],
    [['Bash:cat', 'Grep'], true],
    [['Read', 'Bash:npm'], false],
    [['mcp__github__create_issue', 'Read'], false],
  ])('generic %j → %s', (tools, generic) => expect(isGenericSequence(tools)).toBe(generic));
});

describe('draftPatterns', () => {
  it('drafts a SKILL.md in the task words, valid under the strict spec profile, with its evidence', () => {
    const [detected] = draftPatterns([pattern], [], { sessions });
    const text = detected?.draft?.text ?? '';
    expect(detected?.draft?.name).toBe('fix-flaky-parser');
    const data = frontmatterOf(text);
    expect(Object.keys(data)).toEqual(['name', 'description', 'metadata']);
    expect(String(data.description)).toMatch(/^Fix the flaky parser test: /);
    expect(String(data.description)).toContain('Use when asked to fix the flaky parser test');
    expect(data.metadata).toMatchObject({
      version: '0.1.0',
      fingerprint: pattern.fingerprint,
      sessions: '3',
      session_ids: 'a, bb, ccc',
      first_seen: '2026-10-01T10:00:00Z',
      last_seen: '2026-10-03T11:00:00Z',
    });
    expect(data.metadata).not.toHaveProperty('pinned');
    expect(Object.values(data.metadata as object).every((v) => typeof v === 'string')).toBe(true);
    const findings = checkSchema({ file: 'SKILL.md', data, profile: 'spec', locateKey: () => undefined, locateValue: () => undefined });
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(text).toContain('4. Run `npm run test:fuzz -- parser` with `Bash`, until the tests pass.');
    expect(text).toContain('Edit the `*.ts` files with `Edit`');
    expect(detected?.draft?.evidence?.ending).toBe('tests');
  });

  it('puts version, pinned and when_to_use at the top under the runtime profile', () => {
    const data = frontmatterOf(draftPatterns([pattern], [], { sessions, profile: 'runtime' })[0]?.draft?.text ?? '');
    expect(data).toMatchObject({ version: '0.1.0', pinned: false });
    expect(String(data.when_to_use)).toMatch(/^When a person asks to fix the flaky parser test/);
  });

  it('drafts no working habit: search, edit and test with commands every task runs', () => {
    const habit = [
      session('a', 'Please fix the flaky parser test.', 'npm test -- --run parser'),
      session('bb', 'The parser test is flaky again, fix the flaky parser test', 'npm test -- --run parser'),
      session('ccc', 'fix the flaky parser test before the release', 'npm run test && git commit -am fix'),
    ];
    const [detected] = draftPatterns([pattern], [], { sessions: habit });
    expect(detected?.draft).toBeUndefined();
    expect(detected?.reason).toBe(
      'runs only commands every task runs (npm test) between reads and edits: a working habit, not a procedure a skill would add',
    );
    // A step of a tool that names a procedure keeps the same loop: a program outside the known ones, or an MCP server's.
    const own = habit.map((s) => ({
      ...s,
      calls: s.calls.map((c, i) => (i === 3 ? call('Bash', { command: './tools/flake-hunt parser' }) : c)),
    }));
    const flake = { ...pattern, tools: ['Grep', 'Read', 'Edit', 'Bash:flake-hunt'] };
    expect(draftPatterns([flake], [], { sessions: own })[0]?.draft?.name).toBe('fix-flaky-parser');
    const tracked = habit.map((s) => ({
      ...s,
      calls: s.calls.map((c, i) => (i === 1 ? call('mcp__linear__get_issue', { id: 'P-1' }) : c)),
    }));
    const viaMcp = { ...pattern, tools: ['Grep', 'mcp__linear__get_issue', 'Edit', 'Bash:npm'] };
    expect(draftPatterns([viaMcp], [], { sessions: tracked })[0]?.draft?.name).toBe('fix-flaky-parser');
    // A command chained after the test run is read too: `npm test && npm publish` releases.
    const chained = habit.map((s) => ({
      ...s,
      calls: s.calls.map((c, i) => (i === 3 ? call('Bash', { command: 'npm test && npm publish' }) : c)),
    }));
    const [published] = draftPatterns([pattern], [], { sessions: chained });
    expect(published?.draft?.text).toContain('Run `npm test`, then `npm publish` with `Bash`');
  });

  it('drafts nothing without a task to name, for generic sequences, or below the limits', () => {
    expect(draftPatterns([pattern], [])[0]?.reason).toMatch(/no task/);
    const generic = { ...pattern, tools: ['Grep', 'Read'], fingerprint: 'ffffffffffffffff' };
    expect(draftPatterns([generic], [], { sessions })[0]?.reason).toMatch(/only reads/);
    expect(draftPatterns([pattern], [], { sessions, limits: { min_confidence: 0.9 } })[0]?.reason).toMatch(/min_confidence/);
    expect(draftPatterns([pattern], [], { sessions, limits: { min_sessions: 4 } })[0]?.reason).toMatch(/min_sessions/);
  });

  it('folds a nested pattern of the same sessions into the longer one', () => {
    const nested = { ...pattern, tools: ['Edit', 'Bash:npm'], confidence: 0.9, fingerprint: 'eeeeeeeeeeeeeeee' };
    const [a, b] = draftPatterns([nested, pattern], [], { sessions });
    expect(a?.draft).toBeUndefined();
    expect(a?.collapsedInto).toBe('fix-flaky-parser');
    expect(b?.draft?.absorbs).toEqual(['eeeeeeeeeeeeeeee']);
  });

  it("skips patterns an existing skill covers: its fingerprint, or the skill's own code runs the pattern's commands", () => {
    const words = { name: 'words', text: '---\nname: words\n---\nUse Grep, Read, Edit, then npm test.' };
    expect(findCoveringSkill(pattern, [words])).toBeUndefined();
    expect(findCoveringSkill(pattern, [{ name: 'fp', text: `fingerprint: ${pattern.fingerprint}` }])?.name).toBe('fp');
    // Tool names as words in prose are not coverage…
    expect(draftPatterns([pattern], [words], { sessions })[0]?.coveredBy).toBeUndefined();
    // …nor a command every task runs: a skill that runs `npm test` does not cover fixing a flaky test…
    const runs = { name: 'parser-tests', text: '---\nname: parser-tests\n---\n## Steps\n\n```bash\nnpm test -- parser\n```\n' };
    expect(draftPatterns([pattern], [runs], { sessions })[0]?.coveredBy).toBeUndefined();
    // …a skill whose steps run the pattern's commands that name a procedure does, or at least two and half of its own.
    const release = (extra: string) => `---\nname: ship\n---\n\`\`\`bash\nnpm version patch\nnpm publish${extra}\n\`\`\`\n`;
    const ship: Pattern = { ...pattern, tools: ['Bash:npm', 'Bash:npm'], fingerprint: 'abababababababab' };
    const commands = ['npm test', 'npm version minor', 'npm publish --tag next', 'git commit -m "x"'];
    expect(findCoveringSkill(ship, [{ name: 'ship', text: release('') }], commands)).toEqual({
      name: 'ship',
      shared: ['npm version', 'npm publish'],
    });
    expect(findCoveringSkill(ship, [{ name: 'ship', text: release('\ngh release create v1') }], [...commands, 'psql -c x'])?.name).toBe(
      'ship',
    );
    expect(
      findCoveringSkill(
        ship,
        [{ name: 'ship', text: release('\ngh release create v1\ngh workflow run\ndocker build .') }],
        [...commands, 'psql -c x'],
      ),
    ).toBeUndefined();
  });

  it('does not draft what a skill the sessions loaded already serves', () => {
    const loaded = sessions.map((s) => ({ ...s, loaded: ['flaky-tests'] }));
    const detected = draftPatterns([pattern], [], { sessions: loaded })[0];
    expect(detected?.draft).toBeUndefined();
    expect(detected?.coveredBy).toBe('flaky-tests');
    expect(detected?.reason).toMatch(/sessions loaded flaky-tests \(3 of its 3\): a skill that works/);
  });

  it('reads limits from the config, ignoring what is not a number', () => {
    expect(resolveDraftLimits({ max_drafts: 2, min_confidence: 'high' })).toEqual({ max_drafts: 2, min_sessions: 3, min_confidence: 0.3 });
  });
});

describe('steps come whole from one representative session', () => {
  const deployPattern: Pattern = { tools: ['Read', 'Bash:kubectl'], sessions: 4, confidence: 0.8, fingerprint: 'fedcba9876543210' };
  const deploy = (id: string, request: string, commands: string[], day: number): MinedSession => ({
    id,
    file: `${id}.jsonl`,
    requests: [{ text: request, at: 0 }],
    calls: [
      call('Read', { file_path: 'deploy/api.yaml' }),
      ...commands.map((command) => call('Bash', { command }, `2026-10-0${day}T10:00:00Z`)),
    ],
  });
  const apply = (context: string) => [`kubectl --context ${context} apply -f deploy/api.yaml`, 'kubectl rollout status deploy/api'];
  // The shortest request (the one the task words quote) is the qa session's, whose command no other session ran.
  const qa = deploy('qa1', 'deploy the api to qa', ['kubectl apply -k overlays/qa'], 1);
  const regions = [
    deploy('p1', 'deploy the api to eu-west', apply('eu-west'), 2),
    deploy('p2', 'deploy the api to us-east', apply('us-east'), 4),
    deploy('p3', 'deploy the api to ap-south', apply('ap-south'), 3),
  ];

  it('takes the request and every command from the most typical session, the varying argument a placeholder', () => {
    const sessions = [qa, ...regions];
    expect(findTaskWords(sessions.map((s) => s.requests.map((r) => r.text))).example).toBe('deploy the api to qa');
    const [detected] = draftPatterns([deployPattern], [], { sessions });
    const text = detected?.draft?.text ?? '';
    // Of the three typical sessions, the most recent: p2.
    expect(text).toContain('as in "deploy the api to us-east"');
    expect(text).toContain(
      '2. Run `kubectl --context <context> apply -f deploy/api.yaml`, then `kubectl rollout status deploy/api` with `Bash`.',
    );
    // Nothing of the qa session is stitched in: not its request as the example, not its command.
    expect(text).not.toMatch(/as in "deploy the api to qa"|overlays|\(or /);
  });

  it('breaks a tie between equally typical sessions by the request the task words quote', () => {
    const [detected] = draftPatterns([{ ...deployPattern, sessions: 3 }], [], { sessions: regions });
    // p1 and p2 are equally typical; the task words quote p1's request (the shortest, then the first), though p2 is more recent.
    expect(detected?.draft?.text, detected?.reason).toContain('as in "deploy the api to eu-west"');
  });
});
