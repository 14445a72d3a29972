import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { writeSessions } from '../../../bench/detect-transcripts.js';
import { buildToolCall, defaultRefine } from '../../../src/core/patterns/shape.js';
import { parseSkillLoads } from '../../../src/core/patterns/uses.js';
import { Redactor } from '../../../src/core/privacy/redact.js';
import { keptArguments, SessionCollector } from '../../../src/store/transcripts/collector.js';
import { expandTranscriptPaths } from '../../../src/store/transcripts/expand-paths.js';
import { readTranscriptFiles } from '../../../src/store/transcripts/read-transcripts.js';
import { fixtureCorpusRoot, transcriptsRoot } from '../../helpers/corpus.js';

const redactor = new Redactor({ homes: ['/home/alice'] });

/** What a call keeps, from its arguments redacted whole (the plain path) or as far as it keeps them (the fast one). */
function kept(name: string, args: unknown, fast: boolean) {
  const tool = name.trim();
  const input = fast ? keptArguments(args, redactor, defaultRefine[tool]) : redactor.value(args);
  const call = buildToolCall(tool, input, { refine: defaultRefine });
  return { call, skill: parseSkillLoads(tool, input, call.program)[0] };
}

/** Every (name, arguments) a format handler passed to the collector while reading these files. */
async function rawCalls(files: readonly string[]): Promise<Array<[string, unknown]>> {
  const spy = vi.spyOn(SessionCollector.prototype, 'call');
  try {
    for await (const result of readTranscriptFiles(files)) void result;
    return spy.mock.calls.filter((c) => typeof c[1] === 'string').map((c) => [c[1] as string, c[2]]);
  } finally {
    spy.mockRestore();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'sg-kept-args-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('keptArguments: redacting only what a call keeps equals redacting every argument', () => {
  it.each([
    ['the transcript corpus', transcriptsRoot],
    ['the fixture transcripts', join(fixtureCorpusRoot, 'transcripts')],
    ['the format fixtures', join(import.meta.dirname, '..', '..', 'fixtures', 'transcripts')],
  ])('on %s', async (_label, root) => {
    const { files } = await expandTranscriptPaths([root], { cwd: root });
    const calls = await rawCalls(files);
    expect(calls.length).toBeGreaterThan(5);
    for (const [name, args] of calls) expect(kept(name, args, true)).toEqual(kept(name, args, false));
  });

  it('on generated Claude Code sessions (the benchmark inputs)', async () => {
    await writeSessions((f) => join(dir, `${f}.jsonl`), { sessions: 200, calls: 4000, files: 2, seed: 7 });
    const calls = await rawCalls([join(dir, '0.jsonl'), join(dir, '1.jsonl')]);
    expect(calls.length).toBeGreaterThan(3000);
    for (const [name, args] of calls) expect(kept(name, args, true)).toEqual(kept(name, args, false));
  });

  const secretish = fc.oneof(
    fc.string(),
    fc.constantFrom(
      'ghp_abcdefghijklmnopqrstuvwxyz0123',
      '/home/alice/src/app/SKILL.md',
      'cat /home/bob/skills/deploy/SKILL.md',
      'curl -u bob:hunter22 https://x.test',
      'TOKEN=abc123def git push',
      'bob@example.com',
      'sed -n 1,20p skills/pdf/SKILL.md',
      'deploy',
    ),
  );
  const key = fc.constantFrom(
    'command',
    'cmd',
    'file_path',
    'path',
    'filePath',
    'skill',
    'name',
    'skill_name',
    'content',
    'old_string',
    'x',
  );
  const value = fc.oneof(secretish, fc.array(secretish, { maxLength: 4 }), fc.integer(), fc.constant(null), fc.dictionary(key, secretish));
  const tool = fc.constantFrom('Bash', 'Read', 'Edit', 'Write', 'Skill', 'SlashCommand', 'load_skill', 'exec_command', 'shell', 'view');

  it('on random arguments (secrets, home paths, SKILL.md reads, arrays, nested objects)', () => {
    fc.assert(
      fc.property(tool, fc.oneof(fc.dictionary(key, value), value), (name, args) => {
        expect(kept(name, args, true)).toEqual(kept(name, args, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('passes on no string unredacted, and none at all under a key no reader takes', () => {
    const args = {
      command: 'curl -u bob:hunter22 https://x.test',
      content: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
      new_string: 'bob@example.com',
    };
    expect(keptArguments(args, redactor, 'command')).toEqual({
      command: 'curl -u <user>:$PASSWORD https://x.test',
      content: null,
      new_string: null,
    });
  });
});
