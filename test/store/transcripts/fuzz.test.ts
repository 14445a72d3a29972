import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';

const dir = mkdtempSync(join(tmpdir(), 'sg-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Fragments of real records, so the fuzzer reaches past the first JSON.parse.
const fragments = [
  '{"type":"assistant","sessionId":"s","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read","input":{}}]}}',
  '{"type":"user","message":{"content":"/deploy now"}}',
  '{"session":"a","tool":"Bash","args":{"command":"git status"}}',
  '{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}"}}',
  '{"conversations":[{"from":"gpt","value":"<tool_call>{\\"name\\":\\"x\\"}</tool_call>"}]}',
  '{"messages":[{"role":"assistant","tool_calls":[{"function":{"name":"f","arguments":"{}"}}]}]}',
  '{"history":[{"source":"agent","action":"run","args":{"command":"ls"}}]}',
  '{"trajectory":[{"action":"find_file x"}]}',
  '{"sessionId":"g","projectHash":"p","startTime":"t"}',
  '{"id":"m1","type":"gemini","content":"","toolCalls":[{"id":"c","name":"glob","args":{}}]}',
  '{"$set":{"messages":[{"id":"m2","type":"gemini","toolCalls":[null,{"name":"ls"}]}]}}',
  '{"$rewindTo":"m1"}',
  '{"role":"assistant","message":{"content":[{"type":"tool_use","name":"Shell","input":{"command":"ls"}}]}}',
  '{"type":"turn_ended","status":"success"}',
  '{"info":{"id":"ses"},"messages":[{"info":{"role":"user"},"parts":[{"type":"tool","tool":"bash","state":{}}]}]}',
  '[{"role":"assistant","content":[{"type":"text","text":"<read_file><path>a</path></read_file><execute_command>"}]}]',
  '[1,2]',
  'null',
  '"str"',
  '{',
  '}',
  ',',
  '\n',
  '\r\n',
  '\u0000',
  'é',
  '\uFFFD',
];

describe('readTranscriptFile is total', () => {
  it('never throws on arbitrary content, and counts only in positive numbers', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 20 })), { maxLength: 12 }),
        fc.constantFrom('.jsonl', '.json', '.traj', '.log'),
        fc.uint8Array({ maxLength: 4 }),
        async (parts, ext, noise) => {
          const path = join(dir, `f${(n += 1)}${ext}`);
          writeFileSync(path, Buffer.concat([Buffer.from(parts.join('\n')), Buffer.from(noise)]));
          const result = await readTranscriptFile(path);
          for (const skip of result.skipped) {
            expect(skip.count).toBeGreaterThan(0);
            expect((skip.lines ?? []).length).toBeLessThanOrEqual(Math.min(skip.count, 10));
          }
          for (const session of result.sessions) expect(session.calls.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 200 },
    );
  });
});
