import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxOpenSessions, type FileReadResult } from '../../../src/store/transcripts/collector.js';
import { expandTranscriptPaths } from '../../../src/store/transcripts/expand-paths.js';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';
import { readTranscriptFiles } from '../../../src/store/transcripts/read-transcripts.js';
import { transcriptsRoot } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/tmp.js';
import { writeSessions } from '../../../bench/detect-transcripts.js';
import { DetectFold } from '../../../src/services/detect.js';

/** A file's parts as `readTranscriptFiles` yields them, joined: what a fold of every part sees. */
async function readInParts(files: readonly string[]): Promise<FileReadResult[]> {
  const out: FileReadResult[] = [];
  let parts: FileReadResult[] = [];
  for await (const part of readTranscriptFiles(files)) {
    parts.push(part);
    if (part.partial === true) continue;
    out.push({ ...part, sessions: parts.flatMap((p) => p.sessions), uses: parts.flatMap((p) => p.uses) });
    parts = [];
  }
  return out;
}

/** The plain reading: each file held whole to its end. */
async function readWhole(files: readonly string[]): Promise<FileReadResult[]> {
  const out: FileReadResult[] = [];
  for (const file of files) out.push(await readTranscriptFile(file, { displayPath: file }));
  return out;
}

const line = (record: object) => JSON.stringify(record);

/** A Claude Code session: a request, a slash command, two calls with results (one an error), a subagent's call between. */
function session(n: number, agent: boolean): string[] {
  const sessionId = `s-${n}`;
  const lines = [
    line({ type: 'user', sessionId, timestamp: '2026-01-01T00:00:00Z', message: { role: 'user', content: `fix issue ${n % 7}` } }),
    line({ type: 'user', sessionId, message: { role: 'user', content: `/deploy-${n % 3} now` } }),
    line({
      type: 'assistant',
      sessionId,
      message: { content: [{ type: 'tool_use', id: `t${n}a`, name: 'Bash', input: { command: `git status ${n % 5}` } }] },
    }),
  ];
  if (agent)
    lines.push(
      line({
        type: 'assistant',
        sessionId,
        isSidechain: true,
        message: { content: [{ type: 'tool_use', id: `t${n}s`, name: 'Read', input: { file_path: 'a.ts' } }] },
      }),
    );
  lines.push(
    line({ type: 'user', sessionId, message: { content: [{ type: 'tool_result', tool_use_id: `t${n}a`, is_error: n % 2 === 0 }] } }),
    // A repeated line (a resumed session writes lines again): counted once.
    lines[2] as string,
    line({
      type: 'assistant',
      sessionId,
      message: { content: [{ type: 'tool_use', id: `t${n}b`, name: 'Skill', input: { skill: `skill-${n % 4}` } }] },
    }),
  );
  return lines;
}

describe('a file of many sessions is read in parts', () => {
  it('the parts joined equal the file held whole: corpus transcripts, generated sets, sessions with subagents between', async () => {
    const dir = tempDir();
    const many = join(dir, 'many.jsonl');
    const count = maxOpenSessions * 5 + 17;
    writeFileSync(many, Array.from({ length: count }, (_, n) => session(n, n % 3 === 0).join('\n')).join('\n') + '\n');
    const generated = join(dir, 'generated.jsonl');
    await writeSessions(() => generated, { sessions: 6_000, calls: 12_000, files: 1, seed: 7 });
    const corpus = (await expandTranscriptPaths([transcriptsRoot], { cwd: transcriptsRoot })).files;
    const files = [many, generated, ...corpus];
    const parted = await readInParts(files);
    const whole = await readWhole(files);
    expect(parted).toEqual(whole);
    // What detect reports from the parts as they come is byte for byte what it reports from the files held whole.
    const fromParts = new DetectFold({ transcripts: [] }, files.length);
    for await (const part of readTranscriptFiles(files)) fromParts.add(part);
    const fromWhole = new DetectFold({ transcripts: [] }, files.length);
    for (const result of whole) fromWhole.add(result);
    const report = JSON.stringify(await fromWhole.finish());
    expect(JSON.stringify(await fromParts.finish())).toBe(report);
    expect(report).toContain('"patterns":[{');
    expect(whole[0]?.sessions).toHaveLength(count + Math.ceil(count / 3));
    expect(whole[0]?.sessions[0]?.calls).toHaveLength(2);
    expect(whole[0]?.uses).toHaveLength(count * 2);
  });

  it('holds a few thousand sessions at a time, never the file', async () => {
    const dir = tempDir();
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, Array.from({ length: maxOpenSessions * 6 }, (_, n) => session(n, false).join('\n')).join('\n'));
    const sizes: number[] = [];
    for await (const part of readTranscriptFiles([file])) sizes.push(part.sessions.length);
    expect(sizes.length).toBeGreaterThan(4);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(maxOpenSessions * 2 + 1);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(maxOpenSessions * 6);
  });

  it('a session named again after it was handed on is read as a second session and reported, not merged silently', async () => {
    const dir = tempDir();
    const file = join(dir, 'returns.jsonl');
    const others = Array.from({ length: maxOpenSessions * 3 }, (_, n) => session(n + 1, false).join('\n'));
    // The returning line repeats a call the first part had: held whole, it is dropped as a repeat; in parts, it is new.
    writeFileSync(file, [session(0, false).join('\n'), ...others, session(0, false).slice(2, 3).join('\n')].join('\n'));
    const [parted] = await readInParts([file]);
    const [whole] = await readWhole([file]);
    expect(whole?.sessions.filter((s) => s.id === 's-0').map((s) => s.calls.length)).toEqual([2]);
    expect(parted?.sessions.filter((s) => s.id === 's-0').map((s) => s.calls.length)).toEqual([2, 1]);
    expect(parted?.skipped).toContainEqual({
      file,
      reason: `sessions continued after ${maxOpenSessions} or more others began (read as two sessions)`,
      count: 1,
      lines: [maxOpenSessions * 3 * 6 + 7],
    });
  });
});
