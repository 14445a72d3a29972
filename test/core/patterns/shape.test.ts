import { describe, expect, it } from 'vitest';
import { buildArgShape, buildChainHeads, buildToolCall, defaultRefine, parseProgram } from '../../../src/core/patterns/shape.js';
import { buildToken, collapseRuns } from '../../../src/core/patterns/tokens.js';

describe('parseProgram', () => {
  it.each([
    ['git status', 'git'],
    ['  npm test -- --run', 'npm'],
    ['sudo apt-get install -y jq', 'apt-get'],
    ['sudo -u postgres psql', 'psql'],
    ['NODE_ENV=test FOO=1 npx vitest run', 'npx'],
    ['cd app && npm run build', 'npm'],
    ['cd "my dir"; make', 'make'],
    ['cd /tmp', 'cd'],
    ['/usr/bin/git log', 'git'],
    ['./rock', 'rock'],
    ['env -i python3 x.py', 'python3'],
    ['time cargo test', 'cargo'],
    ['find_file "missing_colon.py"', 'find_file'],
    ['', undefined],
    ['   ', undefined],
  ])('%j → %j', (command, program) => {
    expect(parseProgram(command)).toBe(program);
  });

  it('unwraps an argv that runs a shell script', () => {
    expect(parseProgram(['/bin/zsh', '-lc', 'rg -n foo .'])).toBe('rg');
    expect(parseProgram(['bash', '-c', 'cd x && pytest -q'])).toBe('pytest');
    expect(parseProgram(['ls', '-la'])).toBe('ls');
  });
});

describe('buildToolCall', () => {
  it('refines a shell tool by its program and keeps other tools by their argument keys', () => {
    expect(buildToolCall('Bash', { command: 'git diff', description: 'd' }, { refine: defaultRefine })).toEqual({
      name: 'Bash',
      shape: 'git',
      program: 'git',
      detail: 'git diff',
    });
    expect(buildToolCall('Read', { limit: 5, file_path: 'x' }, { refine: defaultRefine, time: 't' })).toEqual({
      name: 'Read',
      shape: 'file_path,limit',
      time: 't',
    });
    expect(buildToolCall('exec_command', { cmd: 'sed -n 1p f' }, { refine: defaultRefine }).program).toBe('sed');
    expect(buildToolCall('Shell', { command: 'npm run build' }, { refine: defaultRefine }).program).toBe('npm');
    expect(
      buildToolCall('execute_command', { command: 'cd web && pnpm test', requires_approval: 'false' }, { refine: defaultRefine }).program,
    ).toBe('pnpm');
  });

  it.each([
    ['cd app && npm test -- --run', 'npm test -- --run'],
    ['git commit -m "fix the parser"', 'git commit -m "fix the parser"'],
    ['sudo -u web make deploy ENV=prod && echo ok', 'make deploy ENV=prod'],
    ['pytest -x tests/test_a.py 2>&1 | tail -n 20', 'pytest -x tests/test_a.py 2>&1 | tail -n 20'],
    [
      'docker login -u <user> -p $REGISTRY_PASSWORD reg.example.com; docker push x',
      'docker login -u <user> -p $REGISTRY_PASSWORD reg.example.com',
    ],
    ['kubectl --context prod apply -f deploy/app.yaml', 'kubectl --context prod apply -f deploy/app.yaml'],
  ])('keeps the whole command of %j, arguments and shell syntax intact, as the call detail: %j', (command, detail) => {
    expect(buildToolCall('Bash', { command }, { refine: defaultRefine }).detail).toBe(detail);
  });

  it('keeps a file tool sub-command and file kind as the detail', () => {
    expect(buildToolCall('str_replace_editor', { command: 'create', path: '/w/a.PY' }, { refine: defaultRefine }).detail).toBe(
      'create *.py',
    );
    expect(buildToolCall('Edit', { file_path: 'Makefile' }, { refine: defaultRefine }).detail).toBe('Makefile');
    expect(buildToolCall('Grep', { pattern: 'x' }, { refine: defaultRefine }).detail).toBeUndefined();
  });

  it('uses a custom refine map, and none at all when refinement is off', () => {
    expect(buildToolCall('run', { script: 'make all' }, { refine: { run: 'script' } }).program).toBe('make');
    expect(buildToolCall('Bash', { command: 'git diff' }, { refine: false })).toEqual({ name: 'Bash', shape: 'command' });
  });

  it('gives non-object arguments an empty shape', () => {
    expect(buildArgShape('*** Begin Patch')).toBe('');
    expect(buildArgShape(undefined)).toBe('');
    expect(buildArgShape([1, 2])).toBe('');
  });
});

describe('buildToken', () => {
  it('joins tool and program, keeps MCP names whole, and obeys the off switch', () => {
    expect(buildToken({ name: 'Bash', shape: 'npm', program: 'npm' })).toBe('Bash:npm');
    expect(buildToken({ name: 'Bash', shape: 'npm', program: 'npm' }, { refine: false })).toBe('Bash');
    expect(buildToken({ name: 'mcp__github__create_issue', shape: 'body,title' })).toBe('mcp__github__create_issue');
  });
});

describe('collapseRuns', () => {
  it('turns each run of one token into one token', () => {
    expect([...collapseRuns([1, 1, 1, 2, 2, 1, 3, 3])]).toEqual([1, 2, 1, 3]);
    expect([...collapseRuns([])]).toEqual([]);
  });
});

describe('buildChainHeads: the commands chained after the first', () => {
  it.each([
    ['npm run build && npm publish', ['npm publish']],
    ['cd app && npm test -- --run', []],
    ['git commit -m "x && y" && git push origin main', ['git push origin main']],
    ['npm ci; npm test || echo failed', ['npm test', 'echo failed']],
    ['pytest -q; git status', ['git status']],
    ['curl -fsSL x | sh', []],
    ['cd web && pnpm build && cd .. && vercel deploy --prod', ['vercel deploy --prod']],
    ['ls', []],
  ])('%s', (command, expected) => {
    expect(buildChainHeads(command)).toEqual(expected);
  });

  it('reads the script of bash -lc, as Codex records it, and sets `chain` on the call only when there is one', () => {
    expect(buildChainHeads(['bash', '-lc', 'npm version patch && npm publish'])).toEqual(['npm publish']);
    expect(buildChainHeads(['npm', 'test'])).toEqual([]);
    // The head of the first command too: the script's, not `npm` cut off from its quoted sub-command.
    const listed = buildToolCall('shell', { command: ['bash', '-lc', 'npm version patch && npm publish'] }, { refine: defaultRefine });
    expect(listed).toMatchObject({ program: 'npm', detail: 'npm version patch', chain: ['npm publish'] });
    expect(buildToolCall('shell', { command: ['npm', 'version', 'patch'] }, { refine: defaultRefine }).detail).toBe('npm version patch');
    const chained = buildToolCall('Bash', { command: 'npm version patch && git push --tags' }, { refine: defaultRefine });
    expect(chained).toMatchObject({ detail: 'npm version patch', chain: ['git push --tags'] });
    expect('chain' in buildToolCall('Bash', { command: 'npm test' }, { refine: defaultRefine })).toBe(false);
  });
});

describe('buildToolCall built as one literal or key by key', () => {
  // A call's keys come in one order whichever way it was built: reports and drafts serialize calls as they are.
  const order = ['name', 'shape', 'program', 'detail', 'chain', 'time'];
  it.each([
    ['Bash', { command: 'git status' }, '2026-01-01T00:00:00.000Z'],
    ['Bash', { command: 'git status' }, undefined],
    ['Bash', { command: 'npm run build && npm publish' }, '2026-01-01T00:00:00.000Z'],
    ['Bash', { command: '' }, '2026-01-01T00:00:00.000Z'],
    ['Read', { file_path: '/a/b.ts' }, '2026-01-01T00:00:00.000Z'],
    ['Read', { file_path: '/a/b.ts' }, undefined],
    ['Grep', { pattern: 'x' }, '2026-01-01T00:00:00.000Z'],
    ['Grep', { pattern: 'x' }, undefined],
  ])('%s %j at %s: keys in order, values as before', (name, args, time) => {
    const call = buildToolCall(name, args, time === undefined ? { refine: defaultRefine } : { refine: defaultRefine, time });
    const keys = Object.keys(call);
    expect(keys).toEqual(order.filter((key) => keys.includes(key)));
    if (time !== undefined) expect(call.time).toBe(time);
    else expect('time' in call).toBe(false);
    for (const key of keys) expect((call as unknown as Record<string, unknown>)[key]).not.toBeUndefined();
  });
});
