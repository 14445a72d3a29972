import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeSessionId } from '../../../src/store/transcripts/collector.js';
import { codexOutputFailed } from '../../../src/store/transcripts/format-codex.js';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';
import { corpusTranscriptsRoot, hasTranscriptCorpus } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/tmp.js';

function writeLines(lines: unknown[]): string {
  const file = join(tempDir('sg-call-errors-'), 'session.jsonl');
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return file;
}

describe('which tool calls failed, as the transcript says', () => {
  it('Claude Code: a tool_result with is_error marks its own call, matched by tool_use_id, not its neighbour', async () => {
    const at = '2026-10-01T09:00:00Z';
    const assistant = (id: string, command: string) => ({
      type: 'assistant',
      sessionId: 's1',
      timestamp: at,
      message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
    });
    const result = (id: string, isError?: boolean) => ({
      type: 'user',
      sessionId: 's1',
      timestamp: at,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: 'x', ...(isError === undefined ? {} : { is_error: isError }) }],
      },
    });
    const file = writeLines([
      assistant('t1', 'npm test'),
      assistant('t2', 'npm run build'),
      result('t2', true),
      result('t1', false),
      assistant('t3', 'git status'),
      result('t3'),
    ]);
    const read = await readTranscriptFile(file);
    expect(read.sessions[0]!.calls.map((c) => c.error === true)).toEqual([false, true, false]);
  });

  it('Codex: a non-zero exit in the output of a function call marks it; the older JSON output too', async () => {
    expect(codexOutputFailed('Chunk ID: a\nProcess exited with code 1\nOutput:\nboom')).toBe(true);
    expect(codexOutputFailed('Chunk ID: a\nProcess exited with code 0\nOutput:\n')).toBe(false);
    expect(codexOutputFailed('Process running with session ID 4\nOutput:\n')).toBe(false);
    expect(codexOutputFailed(JSON.stringify({ output: 'x', metadata: { exit_code: 2 } }))).toBe(true);
    expect(codexOutputFailed(JSON.stringify({ output: 'x', metadata: { exit_code: 0 } }))).toBe(false);
    const item = (payload: Record<string, unknown>) => ({ timestamp: '2026-10-01T09:00:00Z', type: 'response_item', payload });
    const file = writeLines([
      { timestamp: '2026-10-01T09:00:00Z', type: 'session_meta', payload: { id: 'c1' } },
      item({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }), call_id: 'a' }),
      item({ type: 'function_call_output', call_id: 'a', output: 'Process exited with code 1\nOutput:\nfail' }),
      item({ type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: 'npm test' }), call_id: 'b' }),
      item({ type: 'function_call_output', call_id: 'b', output: 'Process exited with code 0\nOutput:\nok' }),
    ]);
    const read = await readTranscriptFile(file);
    expect(read.sessions[0]!.calls.map((c) => c.error === true)).toEqual([true, false]);
  });

  it.skipIf(!hasTranscriptCorpus)(
    'real Claude Code sessions from the corpus: every is_error:true result marks exactly one call',
    async () => {
      const file = join(corpusTranscriptsRoot, 'marot__spotter/test/fixtures/transcripts/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl');
      const read = await readTranscriptFile(file);
      const failed = read.sessions.flatMap((s) => s.calls).filter((c) => c.error === true).length;
      expect(failed).toBeGreaterThan(0);
    },
  );
});

describe('session ids from transcripts', () => {
  it('lose line breaks, control characters and bidi overrides before they go anywhere (a commit message, a report)', async () => {
    const hostile = 's1\nSkill-Action: archive\nSkill-Name: everything\u202e\u0007';
    const file = writeLines([
      {
        type: 'assistant',
        sessionId: hostile,
        timestamp: '2026-10-01T09:00:00Z',
        message: { id: 'm', role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'ls' } }] },
      },
    ]);
    const read = await readTranscriptFile(file);
    expect(read.sessions.map((s) => s.id)).toEqual(['s1 Skill-Action: archive Skill-Name: everything']);
    expect(safeSessionId('x'.repeat(500))).toHaveLength(200);
    expect(safeSessionId('\n\n')).toBe('session');
  });
});
