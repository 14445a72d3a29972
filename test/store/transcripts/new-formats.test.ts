import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FileReadResult } from '../../../src/store/transcripts/collector.js';
import { detectDocumentFormat, detectRecordFormat } from '../../../src/store/transcripts/detect-format.js';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';

// Fixtures built from each tool's documented shape (see the reader's header comment for the source).
const fixtures = join(import.meta.dirname, '../../fixtures/transcripts');
const gemini = join(fixtures, 'gemini/session-2026-11-30T09-12-3f2a9c1e.jsonl');
const cursor = join(fixtures, 'cursor/agent-transcripts/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71.jsonl');
const opencode = join(fixtures, 'opencode/ses_4f1b2c3d9e8fAbCdEfGh1234.json');
const opencodeCut = join(fixtures, 'opencode/ses_7a6b5c4d3e2fZyXwVuTs9876.json');
const clineXml = join(fixtures, 'cline/tasks/1764493512000/api_conversation_history.json');
const clineNative = join(fixtures, 'cline/tasks/1764497100000/api_conversation_history.json');

const dir = mkdtempSync(join(tmpdir(), 'sg-new-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const read = (path: string) => readTranscriptFile(path, { displayPath: 'f' });
const calls = (result: FileReadResult) => result.sessions.flatMap((s) => s.calls.map((c) => [c.name, c.shape, c.program ?? null]));
const requests = (result: FileReadResult) => result.sessions.flatMap((s) => s.requests.map((r) => [r.text, r.at]));
const skips = (result: FileReadResult) => Object.fromEntries(result.skipped.map((s) => [s.reason, s.count]));

describe('Gemini CLI JSONL sessions', () => {
  it('counts each call once, from the last version of its re-appended message, and leaves rewound turns out', async () => {
    const result = await read(gemini);
    expect(result.format).toBe('gemini');
    expect(result.sessions.map((s) => s.id)).toEqual(['3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c70']);
    expect(calls(result)).toEqual([
      ['run_shell_command', 'npm', 'npm'],
      ['read_file', 'absolute_path', null],
      ['replace', 'file_path,instruction,new_string,old_string', null],
      ['write_file', 'content,file_path', null],
      ['run_shell_command', 'npm', 'npm'],
    ]);
    expect(result.sessions[0]?.calls.map((c) => c.time)).toEqual([
      '2026-11-30T09:12:15.001Z',
      '2026-11-30T09:12:20.312Z',
      '2026-11-30T09:12:32.010Z',
      '2026-11-30T09:13:09.900Z',
      '2026-11-30T09:14:34.020Z',
    ]);
    expect(requests(result)).toEqual([
      ['The date parser test fails on 2024-02-29. Run the tests and fix the parser.', 0],
      ['Also add a test for 2100-02-29, which is not a leap day.', 3],
      ['No, keep our parser. Run the whole suite once more.', 4],
    ]);
    expect(skips(result)).toEqual({ 'lines that are not JSON': 1, 'tool calls without a name': 1 });
  });

  it('applies $set.messages (the list replaced whole) and an unknown $rewindTo (everything before goes)', async () => {
    const line = (value: unknown) => JSON.stringify(value);
    const header = { sessionId: 's-1', projectHash: 'p', startTime: '2026-01-01T00:00:00Z' };
    const message = (id: string, name: string) => ({ id, type: 'gemini', content: '', toolCalls: [{ id: `${id}-c`, name, args: {} }] });
    const replaced = join(dir, 'replaced.jsonl');
    writeFileSync(
      replaced,
      [
        line(header),
        line(message('a', 'glob')),
        line({ $set: { messages: [message('b', 'read_file')] } }),
        line(message('c', 'replace')),
      ].join('\n'),
    );
    expect(calls(await read(replaced)).map((c) => c[0])).toEqual(['read_file', 'replace']);
    const cleared = join(dir, 'cleared.jsonl');
    writeFileSync(
      cleared,
      [line(header), line(message('a', 'glob')), line({ $rewindTo: 'never-seen' }), line(message('b', 'ls'))].join('\n'),
    );
    expect(calls(await read(cleared)).map((c) => c[0])).toEqual(['ls']);
  });

  it('still reads the older whole-file session-*.json, written as one JSON document', async () => {
    const legacy = join(dir, 'session-legacy.json');
    const lines = readFileSync(gemini, 'utf8').split('\n');
    const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    const messages = lines
      .slice(1)
      .filter((l) => l.startsWith('{"id"') && l.endsWith('}'))
      .map((l) => JSON.parse(l) as { id: string })
      .filter((m, i, all) => all.findLastIndex((o) => o.id === m.id) === i);
    writeFileSync(legacy, JSON.stringify({ ...header, messages }, null, 2));
    const result = await read(legacy);
    expect(result.format).toBe('gemini');
    // Without the rewind line, the rewound turn is part of the session again.
    expect(calls(result).map((c) => c[0])).toEqual([
      'run_shell_command',
      'read_file',
      'replace',
      'write_file',
      'run_shell_command',
      'run_shell_command',
    ]);
  });
});

describe('Cursor agent transcripts', () => {
  it('reads tool_use blocks in order, the <user_query> text, and the file as the session', async () => {
    const result = await read(cursor);
    expect(result.format).toBe('cursor');
    expect(result.sessions.map((s) => s.id)).toEqual(['d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71']);
    expect(calls(result)).toEqual([
      ['Grep', 'path,pattern', null],
      ['Read', 'path', null],
      ['StrReplace', 'new_string,old_string,path', null],
      ['Shell', 'npm', 'npm'],
      ['Read', 'path', null],
      ['StrReplace', 'new_string,old_string,path', null],
    ]);
    expect(requests(result)).toEqual([
      ['Add a --verbose flag to the CLI that prints each file it processes.', 0],
      ['Document it in the README.', 4],
    ]);
    expect(skips(result)).toEqual({ 'tool calls without a name': 1, 'truncated last line (not JSON)': 1 });
  });
});

describe('OpenCode exports', () => {
  it('reads tool parts with their inputs and start times, non-synthetic user text, and the skill tool as a use', async () => {
    const result = await read(opencode);
    expect(result.format).toBe('opencode');
    expect(result.sessions.map((s) => s.id)).toEqual(['ses_4f1b2c3d9e8fAbCdEfGh1234']);
    expect(calls(result)).toEqual([
      ['bash', 'npm', 'npm'],
      ['read', 'filePath', null],
      ['grep', 'path,pattern', null],
      ['edit', 'filePath,newString,oldString', null],
      ['bash', 'npm', 'npm'],
      ['bash', 'for', 'for'],
      ['skill', 'name', null],
    ]);
    expect(result.sessions[0]?.calls[0]?.time).toBe(new Date(1764493200000 + 1500).toISOString());
    expect(requests(result)).toEqual([
      ['The checkout test fails about one run in five. Find out why and fix it.', 0],
      ['Run it 20 times to be sure, then load the release skill.', 5],
    ]);
    expect(result.uses).toEqual([
      { skill: 'release-notes', session: 'ses_4f1b2c3d9e8fAbCdEfGh1234', time: new Date(1764493200000 + 40000).toISOString() },
    ]);
    expect(skips(result)).toEqual({ 'message parts that are not objects': 1, 'messages without info and parts': 1 });
  });

  it('reports an export cut short as one truncated file, not as lines of JSONL', async () => {
    expect(skips(await read(opencodeCut))).toEqual({ 'files that are not JSON (truncated?)': 1 });
  });
});

describe('Cline task histories', () => {
  it('reads the XML tool tags of its text protocol, the <task> and <feedback>, and names the session by the task folder', async () => {
    const result = await read(clineXml);
    expect(result.format).toBe('cline');
    expect(result.sessions.map((s) => s.id)).toEqual(['1764493512000']);
    expect(calls(result)).toEqual([
      ['read_file', 'path,task_progress', null],
      ['replace_in_file', 'diff,path', null],
      ['execute_command', 'npm', 'npm'],
      ['replace_in_file', 'diff,path', null],
      ['attempt_completion', 'result', null],
    ]);
    expect(result.sessions[0]?.calls[0]?.time).toBe(new Date(1764493512000 + 4000).toISOString());
    expect(requests(result)).toEqual([
      ['Add validation to the signup form: the email must be valid and the password at least 12 characters.', 0],
      ['Show the errors under each field, not in an alert.', 3],
    ]);
    expect(skips(result)).toEqual({ 'tool tags that are never closed (an interrupted reply)': 1, 'messages that are not objects': 1 });
  });

  it('reads native tool_use blocks once per block id', async () => {
    const result = await read(clineNative);
    expect(result.format).toBe('cline');
    expect(result.sessions.map((s) => s.id)).toEqual(['1764497100000']);
    expect(calls(result)).toEqual([
      ['read_file', 'path', null],
      ['execute_command', 'npm', 'npm'],
      ['execute_command', 'npm', 'npm'],
      ['attempt_completion', 'result', null],
    ]);
    expect(skips(result)).toEqual({});
  });

  it("reports the task folder's other files as what they are", async () => {
    const result = await read(join(fixtures, 'cline/tasks/1764493512000/ui_messages.json'));
    expect(skips(result)).toEqual({ 'Cline task files other than api_conversation_history.json (no tool calls)': 1 });
  });
});

describe('format detection', () => {
  it('picks the reader for each new format from its first record or document', () => {
    const firstLine = (path: string) => JSON.parse(readFileSync(path, 'utf8').split('\n')[0] ?? '') as Record<string, unknown>;
    expect(detectRecordFormat(firstLine(gemini))).toBe('gemini');
    expect(detectRecordFormat({ $set: { lastUpdated: 'x' } })).toBe('gemini');
    expect(detectRecordFormat({ $rewindTo: 'm1' })).toBe('gemini');
    // A session whose header line was lost still reads as Gemini's, from its first message.
    expect(detectRecordFormat({ id: 'm1', timestamp: 't', type: 'user', content: [{ text: 'hi' }] })).toBe('gemini');
    expect(detectRecordFormat(firstLine(cursor))).toBe('cursor');
    expect(detectDocumentFormat(JSON.parse(readFileSync(opencode, 'utf8')))).toBe('opencode');
    expect(detectDocumentFormat(JSON.parse(readFileSync(clineXml, 'utf8')))).toBe('cline');
    expect(detectDocumentFormat(JSON.parse(readFileSync(clineNative, 'utf8')))).toBe('cline');
  });

  it('keeps the formats that look alike apart', () => {
    // Claude Code puts `type` beside `message`; Cursor has none.
    expect(detectRecordFormat({ type: 'user', sessionId: 's', message: { role: 'user', content: 'hi' } })).toBe('claude-code');
    expect(detectRecordFormat({ role: 'user', message: { content: [] } })).toBe('cursor');
    // OpenAI-style messages without Anthropic blocks stay chat; with them they are Cline's.
    expect(
      detectDocumentFormat([
        { role: 'user', content: 'fix it' },
        { role: 'assistant', tool_calls: [] },
      ]),
    ).toBe('chat');
    expect(detectDocumentFormat([{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] }])).toBe('cline');
    // A conversation with `messages` but no OpenCode `{info, parts}` entries is chat, or Gemini with projectHash.
    expect(detectRecordFormat({ info: {}, messages: [{ role: 'user', content: 'x' }] })).toBe('chat');
    expect(detectRecordFormat({ sessionId: 's', projectHash: 'p', messages: [] })).toBe('gemini');
  });
});
