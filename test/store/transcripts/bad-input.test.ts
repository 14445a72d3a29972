import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-transcripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const line = (value: unknown) => JSON.stringify(value);
const assistant = (id: string, blocks: unknown[], session = 's1') =>
  line({
    type: 'assistant',
    sessionId: session,
    timestamp: '2026-01-01T00:00:00Z',
    message: { id, role: 'assistant', content: blocks },
  });
const toolUse = (id: string, name: unknown, input: unknown = {}) => ({
  type: 'tool_use',
  id,
  name,
  input,
});

async function skipsOf(path: string, options = {}) {
  const result = await readTranscriptFile(path, {
    displayPath: 'f',
    ...options,
  });
  return Object.fromEntries(result.skipped.map((s) => [s.reason, s.count]));
}

describe('bad transcript input is counted per file, never thrown', () => {
  it('counts a tool_use block once when one message arrives as several lines', async () => {
    const path = file(
      'split.jsonl',
      [
        assistant('msg_1', [{ type: 'text', text: 'hi' }]),
        assistant('msg_1', [toolUse('tu_1', 'Read', { file_path: 'a' })]),
        assistant('msg_1', [
          toolUse('tu_2', 'Edit', {
            file_path: 'a',
            old_string: 'x',
            new_string: 'y',
          }),
        ]),
        assistant('msg_1', [toolUse('tu_1', 'Read', { file_path: 'a' })]),
      ].join('\n'),
    );
    const result = await readTranscriptFile(path);
    expect(result.sessions[0]?.calls.map((c) => [c.name, c.shape])).toEqual([
      ['Read', 'file_path'],
      ['Edit', 'file_path,new_string,old_string'],
    ]);
  });

  it('reports a truncated last line, non-JSON lines, non-object lines and unknown record types', async () => {
    const path = file(
      'mixed-bad.jsonl',
      [
        assistant('m1', [toolUse('t1', 'Read')]),
        'not json at all',
        '42',
        '["a"]',
        line({ type: 'weird', sessionId: 's1' }),
        '',
        assistant('m2', [toolUse('t2', 'Edit')]),
        '{"type": "assistant", "sessionId": "s1", "mess',
      ].join('\n'),
    );
    expect(await skipsOf(path)).toEqual({
      'lines that are not JSON': 1,
      'JSON lines that are not objects': 2,
      'records of unknown type "weird"': 1,
      'truncated last line (not JSON)': 1,
    });
    const result = await readTranscriptFile(path, { displayPath: 'f' });
    expect(Object.fromEntries(result.skipped.map((s) => [s.reason, s.lines]))).toEqual({
      'lines that are not JSON': [2],
      'JSON lines that are not objects': [3, 4],
      'records of unknown type "weird"': [5],
      'truncated last line (not JSON)': [8],
    });
  });

  it('skips a line over the cap without buffering it, and goes on reading', async () => {
    const huge = assistant('m0', [{ type: 'text', text: 'x'.repeat(200_000) }]);
    const path = file(
      'huge.jsonl',
      [assistant('m1', [toolUse('t1', 'Read')]), huge, assistant('m2', [toolUse('t2', 'Edit')])].join('\n') + '\n',
    );
    const result = await readTranscriptFile(path, {
      maxLineBytes: 64 * 1024,
      displayPath: 'f',
    });
    expect(result.skipped).toEqual([{ file: 'f', reason: 'lines longer than 64 KiB', count: 1, lines: [2] }]);
    expect(result.sessions[0]?.calls.map((c) => c.name)).toEqual(['Read', 'Edit']);
  });

  it('reads a line with non-UTF-8 bytes and says so', async () => {
    const good = Buffer.from(assistant('m1', [toolUse('t1', 'Read', { file_path: 'caf' })]));
    const bad = Buffer.from(assistant('m2', [toolUse('t2', 'Grep', { pattern: 'ZZ' })]));
    bad[bad.indexOf('ZZ')] = 0xff;
    const path = file('latin1.jsonl', Buffer.concat([good, Buffer.from('\n'), bad, Buffer.from('\n')]));
    const result = await readTranscriptFile(path, { displayPath: 'f' });
    expect(result.skipped).toEqual([
      {
        file: 'f',
        reason: 'lines with non-UTF-8 bytes (read with U+FFFD)',
        count: 1,
        lines: [2],
      },
    ]);
    expect(result.sessions[0]?.calls.map((c) => c.name)).toEqual(['Read', 'Grep']);
  });

  it('reports lines of another format inside a file, calls without a name, and sessions without calls', async () => {
    const path = file(
      'other.jsonl',
      [
        assistant('m1', [toolUse('t1', 'Read'), toolUse('t2', ''), toolUse('t3', null)]),
        line({ session: 'x', tool: 'Read' }),
        line({
          type: 'user',
          sessionId: 's2',
          message: { role: 'user', content: 'hello' },
        }),
      ].join('\n'),
    );
    expect(await skipsOf(path)).toEqual({
      'tool calls without a name': 2,
      'lines in another format (compact) inside a claude-code file': 1,
      'sessions without tool calls': 1,
    });
  });

  it('skips a whole-file JSON transcript over the size cap, and reports files that are not JSON', async () => {
    const big = file(
      'big.json',
      line({
        messages: [
          {
            role: 'assistant',
            tool_calls: [{ function: { name: 'a', arguments: '{}' } }],
          },
        ],
      }),
    );
    expect(await skipsOf(big, { maxDocumentBytes: 10 })).toEqual({
      'files over 10 bytes in a whole-file JSON format (not read)': 1,
    });
    const broken = file('broken.traj', '{"trajectory": [');
    expect(await skipsOf(broken)).toEqual({
      'files that are not JSON (truncated?)': 1,
    });
    const empty = file('empty.jsonl', '');
    expect(await skipsOf(empty)).toEqual({ 'no sessions found': 1 });
    const unknown = file('unknown.json', line({ hello: 'world' }));
    expect(await skipsOf(unknown)).toEqual({
      'files of no known transcript format': 1,
    });
  });

  it('reads a .json file that holds JSON lines as JSONL', async () => {
    const path = file('lines.json', [line({ session: 'a', tool: 'Read' }), line({ session: 'a', tool: 'Edit' })].join('\n'));
    const result = await readTranscriptFile(path);
    expect(result.format).toBe('compact');
    expect(result.sessions[0]?.calls.length).toBe(2);
  });

  it('obeys a forced format', async () => {
    const path = file('claude-as-codex.jsonl', assistant('m1', [toolUse('t1', 'Read')]));
    const result = await readTranscriptFile(path, {
      format: 'codex',
      displayPath: 'f',
    });
    expect(result.sessions).toEqual([]);
    expect(result.skipped).toContainEqual({
      file: 'f',
      reason: 'lines in another format (claude-code) inside a codex file',
      count: 1,
      lines: [1],
    });
  });
});

describe('formats without a real corpus example', () => {
  it('reads compact JSONL with interleaved sessions', async () => {
    const path = file(
      'compact.jsonl',
      [
        line({
          session: 'a',
          tool: 'Read',
          args: { file_path: 'x' },
          ts: '2026-01-01T00:00:00Z',
        }),
        line({
          session: 'b',
          tool: 'Bash',
          args: { command: 'sudo git pull' },
        }),
        line({
          session: 'a',
          tool: 'Skill',
          args: { skill: 'deploy' },
          ts: 1767225600,
        }),
        line({ session: '', tool: 'Read' }),
      ].join('\n'),
    );
    const result = await readTranscriptFile(path, { displayPath: 'f' });
    expect(result.format).toBe('compact');
    expect(result.sessions.map((s) => [s.id, s.calls.map((c) => c.program ?? c.name)])).toEqual([
      ['a', ['Read', 'Skill']],
      ['b', ['git']],
    ]);
    expect(result.uses).toEqual([{ skill: 'deploy', session: 'a', time: '2026-01-01T00:00:00.000Z' }]);
    expect(result.skipped).toEqual([{ file: 'f', reason: 'compact records without a session', count: 1, lines: [4] }]);
  });

  it('reads Hermes ShareGPT exports: <tool_call> blocks in gpt turns, one conversation a line', async () => {
    const gpt = (calls: unknown[]) => ({
      from: 'gpt',
      value: calls.map((c) => `<tool_call>\n${typeof c === 'string' ? c : line(c)}\n</tool_call>`).join('\n'),
    });
    const path = file(
      'hermes.jsonl',
      [
        line({
          conversations: [
            { from: 'system', value: 's' },
            { from: 'human', value: '/arxiv find papers' },
            gpt([
              { name: 'web_search', arguments: { query: 'q' } },
              { name: 'web_extract', arguments: { urls: [] } },
            ]),
            { from: 'tool', value: '<tool_response>{}</tool_response>' },
          ],
        }),
        line({
          conversations: [gpt([{ name: 'terminal', arguments: { command: 'ls' } }, '{broken'])],
        }),
      ].join('\n'),
    );
    const result = await readTranscriptFile(path, { displayPath: 'f' });
    expect(result.format).toBe('hermes');
    expect(result.sessions.map((s) => [s.id, s.calls.map((c) => c.name)])).toEqual([
      ['hermes#1', ['web_search', 'web_extract']],
      ['hermes#2', ['terminal']],
    ]);
    expect(result.uses.map((u) => u.skill)).toEqual(['arxiv']);
    expect(result.skipped).toEqual([{ file: 'f', reason: '<tool_call> blocks that are not JSON', count: 1, lines: [2] }]);
  });

  it('reads OpenAI-style chat messages with tool_calls, as a file and one conversation a line', async () => {
    const conversation = {
      id: 'conv-1',
      messages: [
        { role: 'user', content: 'fix it' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: {
                name: 'search_papers',
                arguments: '{"query":"x","limit":3}',
              },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'c1', content: '[]' },
        {
          role: 'assistant',
          function_call: { name: 'download_paper', arguments: 'not json' },
        },
      ],
    };
    const whole = await readTranscriptFile(file('chat.json', JSON.stringify(conversation, null, 2)));
    expect(whole.format).toBe('chat');
    expect(whole.sessions[0]?.calls.map((c) => [c.name, c.shape])).toEqual([
      ['search_papers', 'limit,query'],
      ['download_paper', ''],
    ]);
    const lines = await readTranscriptFile(file('chats.jsonl', [line(conversation), line({ messages: conversation.messages })].join('\n')));
    expect(lines.sessions.map((s) => s.id)).toEqual(['conv-1', 'chats#2']);
    const list = await readTranscriptFile(file('list.json', JSON.stringify(conversation.messages)));
    expect(list.sessions[0]?.calls.length).toBe(2);
  });
});

describe('Claude Code sessions', () => {
  it('splits inline sidechain turns (older versions) into a session of their own', async () => {
    const side = (id: string, name: string) =>
      line({
        type: 'assistant',
        sessionId: 's1',
        isSidechain: true,
        message: { id, role: 'assistant', content: [toolUse(`t-${id}`, name)] },
      });
    const path = file(
      'sidechain.jsonl',
      [assistant('m1', [toolUse('t1', 'Task')]), side('m2', 'Grep'), side('m3', 'Read'), assistant('m4', [toolUse('t4', 'Edit')])].join(
        '\n',
      ),
    );
    const result = await readTranscriptFile(path);
    expect(result.sessions.map((s) => [s.id, s.calls.map((c) => c.name)])).toEqual([
      ['s1', ['Task', 'Edit']],
      ['s1/sidechain', ['Grep', 'Read']],
    ]);
  });
});

describe('older Codex rollouts', () => {
  it('reads bare response items after an {id, instructions} header', async () => {
    const path = file(
      'rollout-legacy.jsonl',
      [
        line({ id: 'legacy-1', timestamp: '2025-05-01T10:00:00Z', instructions: null }),
        line({ record_type: 'state' }),
        line({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }),
        line({ type: 'function_call', name: 'shell', arguments: line({ command: ['bash', '-lc', 'ls -la'] }), call_id: 'c1' }),
        line({ type: 'function_call_output', call_id: 'c1', output: '{}' }),
        line({ type: 'function_call', name: 'shell', arguments: line({ command: ['git', 'status'] }), call_id: 'c2' }),
      ].join('\n'),
    );
    const result = await readTranscriptFile(path, { displayPath: 'f' });
    expect(result.format).toBe('codex');
    expect(result.skipped).toEqual([]);
    expect(result.sessions.map((s) => [s.id, s.calls.map((c) => `${c.name}:${c.program}`)])).toEqual([
      ['legacy-1', ['shell:ls', 'shell:git']],
    ]);
  });
});
