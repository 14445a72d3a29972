/**
 * Generated transcripts in the formats added for issue #17, for
 * bench/transcripts-read.ts: the same turns (one tool call and a few KB of
 * output each) in each tool's shape. Each writer returns the calls it wrote.
 */
import { writeFileSync } from 'node:fs';
import type { TranscriptFormat } from '../src/core/patterns/types.js';

type Output = (i: number) => string;

interface FormatWriter {
  format: TranscriptFormat;
  extension: string;
  write: (path: string, megabytes: number, output: Output) => number;
}

const tools = [
  ['read', { path: '/home/u/project/src/app.ts' }],
  ['edit', { path: '/home/u/project/src/app.ts', old_string: 'a'.repeat(80), new_string: 'b'.repeat(90) }],
  ['shell', { command: 'npm test -- --run' }],
  ['grep', { pattern: 'export function', path: 'src' }],
] as const;

const tool = (i: number) => tools[i % tools.length] as (typeof tools)[number];
const time = (i: number) => new Date(Date.UTC(2026, 10, 30, 9) + i * 1000).toISOString();

/** Appends records (one JSON line, or pieces of one document) until the file holds `megabytes`. */
function fill(megabytes: number, record: (i: number) => string): { text: string; turns: number } {
  const chunks: string[] = [];
  let bytes = 0;
  let turns = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const chunk = record(turns);
    chunks.push(chunk);
    bytes += Buffer.byteLength(chunk);
    turns += 1;
  }
  return { text: chunks.join(''), turns };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

function geminiTurn(i: number, output: Output): string {
  const [name, args] = tool(i);
  const call = { id: `${name}-${i}`, name, args, status: 'executing', timestamp: time(i) };
  const message = { id: `g${i}`, timestamp: time(i), type: 'gemini', content: '', toolCalls: [call], model: 'gemini-2.5-pro' };
  const done = { ...call, status: 'success', result: [{ functionResponse: { id: call.id, name, response: { output: output(i) } } }] };
  // Gemini appends a message again, whole, when its call finishes.
  return `${line({ id: `u${i}`, timestamp: time(i), type: 'user', content: [{ text: `step ${i}` }] })}${line(message)}${line({ ...message, toolCalls: [done] })}${line({ $set: { lastUpdated: time(i) } })}`;
}

function cursorTurn(i: number, output: Output): string {
  const [name, input] = tool(i);
  return (
    line({ role: 'user', message: { content: [{ type: 'text', text: `<user_query>\nstep ${i}\n</user_query>` }] } }) +
    line({
      role: 'assistant',
      message: {
        content: [
          { type: 'text', text: 'On it.' },
          { type: 'tool_use', name, input },
        ],
      },
    }) +
    line({ role: 'user', message: { content: [{ type: 'tool_result', content: output(i) }] } }) +
    line({ type: 'turn_ended', status: 'success' })
  );
}

function openCodeMessage(i: number, output: Output): string {
  const [name, input] = tool(i);
  const base = Date.UTC(2026, 10, 30, 9) + i * 1000;
  const part = { id: `prt_${i}`, sessionID: 'ses_bench', messageID: `msg_${i}`, type: 'tool', callID: `call_${i}`, tool: name };
  const state = { status: 'completed', input, output: output(i), title: name, metadata: {}, time: { start: base, end: base + 500 } };
  const message = {
    info: { id: `msg_${i}`, sessionID: 'ses_bench', role: 'assistant', time: { created: base, completed: base + 900 } },
    parts: [
      { id: `prt_s${i}`, type: 'step-start' },
      { ...part, state },
    ],
  };
  return `${i === 0 ? '' : ',\n'}${JSON.stringify(message, null, 2)}`;
}

// Cline's XML protocol knows only its own tool names.
const clineNames: Record<string, string> = { read: 'read_file', edit: 'replace_in_file', shell: 'execute_command', grep: 'search_files' };

function clineMessages(i: number, output: Output, xml: boolean): string {
  const [short, input] = tool(i);
  const name = clineNames[short] ?? short;
  const ts = Date.UTC(2026, 10, 30, 9) + i * 1000;
  const params = Object.entries(input)
    .map(([key, value]) => `<${key}>${value}</${key}>`)
    .join('\n');
  const assistant = xml
    ? { role: 'assistant', content: [{ type: 'text', text: `Next.\n\n<${name}>\n${params}\n</${name}>` }], ts }
    : { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${i}`, name, input }], ts };
  const result = xml
    ? {
        role: 'user',
        content: [
          { type: 'text', text: `[${name}] Result:` },
          { type: 'text', text: output(i) },
        ],
        ts: ts + 500,
      }
    : { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: output(i) }], ts: ts + 500 };
  return `${i === 0 ? '' : ','}${JSON.stringify(assistant)},${JSON.stringify(result)}`;
}

function writeLines(header: string, turn: (i: number, output: Output) => string): FormatWriter['write'] {
  return (path, megabytes, output) => {
    const { text, turns } = fill(megabytes, (i) => turn(i, output));
    writeFileSync(path, header + text);
    return turns;
  };
}

function writeCline(xml: boolean): FormatWriter['write'] {
  return (path, megabytes, output) => {
    const task = JSON.stringify({ role: 'user', content: [{ type: 'text', text: '<task>\nrefactor the app\n</task>' }] });
    const { text, turns } = fill(megabytes, (i) => clineMessages(i, output, xml));
    writeFileSync(path, `[${task},${text}]`);
    return turns;
  };
}

export const formatWriters: Record<string, FormatWriter> = {
  'gemini (jsonl)': {
    format: 'gemini',
    extension: 'jsonl',
    write: writeLines(line({ sessionId: 'bench', projectHash: 'p', startTime: time(0), kind: 'main' }), geminiTurn),
  },
  cursor: { format: 'cursor', extension: 'jsonl', write: writeLines('', cursorTurn) },
  opencode: {
    format: 'opencode',
    extension: 'json',
    write: (path, megabytes, output) => {
      const { text, turns } = fill(megabytes, (i) => openCodeMessage(i, output));
      writeFileSync(
        path,
        `{\n"info": ${JSON.stringify({ id: 'ses_bench', title: 'bench', time: { created: 0, updated: 0 } })},\n"messages": [\n${text}\n]}\n`,
      );
      return turns;
    },
  },
  'cline (tool_use)': { format: 'cline', extension: 'json', write: writeCline(false) },
  'cline (xml tags)': { format: 'cline', extension: 'json', write: writeCline(true) },
};
