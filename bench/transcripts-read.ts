/**
 * Transcript reading throughput: a generated Claude Code JSONL file at three
 * sizes, read by readTranscriptFile, next to the floor (readline + JSON.parse
 * of every line) and JSON.parse alone of lines already in memory; then the
 * same turns written as Gemini CLI JSONL (each message appended twice, as
 * Gemini re-writes it), Cursor JSONL, an OpenCode export and Cline task
 * histories (native tool_use blocks, and the XML tool protocol), each read
 * whole, in MB/s and calls/s.
 * Run: npx tsx bench/transcripts-read.ts
 */
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { readTranscriptFile } from '../src/store/transcripts/read-transcript.js';
import { formatWriters } from './transcripts-formats.js';

const tools = [
  ['Read', () => ({ file_path: '/home/u/project/src/app.ts' })],
  [
    'Edit',
    () => ({
      file_path: '/home/u/project/src/app.ts',
      old_string: 'a'.repeat(80),
      new_string: 'b'.repeat(90),
    }),
  ],
  ['Bash', () => ({ command: 'npm test -- --run', description: 'Run the tests' })],
  ['Grep', () => ({ pattern: 'export function', path: 'src' })],
] as const;

/** A tool's output: a few KB, as in real sessions. */
function buildOutput(i: number): string {
  return 'line of tool output with some code in it: const x = 1;\n'.repeat(20 + (i % 60));
}

/** One turn: an assistant tool_use line, its tool_result (a few KB of output) and a progress line. */
function buildTurn(i: number): string {
  const [name, input] = tools[i % tools.length] as (typeof tools)[number];
  const base = {
    parentUuid: `u${i - 1}`,
    isSidechain: false,
    userType: 'external',
    cwd: '/home/u/project',
    sessionId: 'bench-session',
    version: '2.1.38',
    gitBranch: 'main',
  };
  const assistant = {
    ...base,
    type: 'assistant',
    uuid: `a${i}`,
    timestamp: '2026-02-10T21:11:59.186Z',
    message: {
      model: 'claude-opus-4-6',
      id: `msg_${i}`,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${i}`, name, input: input() }],
      usage: { input_tokens: 3, output_tokens: 120 },
    },
  };
  const output = buildOutput(i);
  const user = {
    ...base,
    type: 'user',
    uuid: `r${i}`,
    timestamp: '2026-02-10T21:12:00.000Z',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${i}`, content: output }],
    },
    toolUseResult: { stdout: output, stderr: '' },
  };
  const progress = {
    ...base,
    type: 'progress',
    uuid: `p${i}`,
    data: {
      type: 'hook_progress',
      hookEvent: 'PostToolUse',
      command: 'echo ok',
    },
    toolUseID: `toolu_${i}`,
  };
  return `${JSON.stringify(assistant)}\n${JSON.stringify(user)}\n${JSON.stringify(progress)}\n`;
}

function writeTranscript(path: string, megabytes: number): number {
  const chunks: string[] = [];
  let bytes = 0;
  let turns = 0;
  while (bytes < megabytes * 1024 * 1024) {
    const turn = buildTurn(turns);
    chunks.push(turn);
    bytes += Buffer.byteLength(turn);
    turns += 1;
  }
  writeFileSync(path, chunks.join(''));
  return turns;
}

async function measure(run: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  await run();
  const cpu = process.cpuUsage(cpuStart);
  return {
    wall: performance.now() - start,
    cpu: (cpu.user + cpu.system) / 1000,
  };
}

async function floorReadline(path: string): Promise<number> {
  let parsed = 0;
  for await (const line of createInterface({
    input: createReadStream(path),
    crlfDelay: Infinity,
  })) {
    if (line !== '') {
      JSON.parse(line);
      parsed += 1;
    }
  }
  return parsed;
}

const dir = mkdtempSync(join(tmpdir(), 'sg-bench-read-'));
try {
  console.log(
    `node ${process.version}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (CPU time shown beside wall time for that reason)`,
  );
  console.log(
    'size MiB  calls    reader MB/s wall (cpu)   readline+JSON.parse MB/s wall (cpu)   JSON.parse only MB/s (cpu)   peak RSS MiB',
  );
  for (const megabytes of [16, 32, 64]) {
    const path = join(dir, `t${megabytes}.jsonl`);
    const turns = writeTranscript(path, megabytes);
    const size = statSync(path).size / 1024 / 1024;
    let calls = 0;
    const reader = await measure(async () => {
      const result = await readTranscriptFile(path);
      calls = result.sessions.reduce((sum, s) => sum + s.calls.length, 0);
    });
    if (calls !== turns) throw new Error(`expected ${turns} calls, read ${calls}`);
    const floor = await measure(() => floorReadline(path));
    const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
    const parseOnly = await measure(() => {
      for (const line of lines) JSON.parse(line);
      return Promise.resolve();
    });
    const rate = (m: { wall: number; cpu: number }) =>
      `${(size / (m.wall / 1000)).toFixed(0).padStart(4)} (${(size / (m.cpu / 1000)).toFixed(0).padStart(4)})`;
    const peak = (process.resourceUsage().maxRSS / 1024).toFixed(0);
    console.log(
      `${size.toFixed(0).padStart(8)}  ${String(calls).padStart(6)}    ${rate(reader).padEnd(22)} ${rate(floor).padEnd(37)} ${rate(parseOnly).padEnd(28)} ${peak.padStart(12)}`,
    );
  }
  console.log('\nformat              size MiB   calls   MB/s wall (cpu)   calls/s wall (cpu)');
  for (const [format, write] of Object.entries(formatWriters)) {
    const path = join(dir, `${format}.${write.extension}`);
    const turns = write.write(path, 32, buildOutput);
    const size = statSync(path).size / 1024 / 1024;
    let calls = 0;
    let detected: string | undefined;
    const reader = await measure(async () => {
      const result = await readTranscriptFile(path);
      detected = result.format;
      calls = result.sessions.reduce((sum, s) => sum + s.calls.length, 0);
    });
    if (calls !== turns || detected !== write.format)
      throw new Error(`${format}: expected ${turns} ${write.format} calls, read ${calls} (${detected})`);
    const per = (amount: number, m: { wall: number; cpu: number }) =>
      `${(amount / (m.wall / 1000)).toFixed(0).padStart(6)} (${(amount / (m.cpu / 1000)).toFixed(0).padStart(6)})`;
    console.log(
      `${format.padEnd(18)} ${size.toFixed(0).padStart(9)}  ${String(calls).padStart(6)}   ${per(size, reader).padEnd(17)} ${per(calls, reader)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
