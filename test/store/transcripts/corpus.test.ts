import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscriptFile } from '../../../src/store/transcripts/read-transcript.js';
import { corpusTranscriptsRoot, describeFullCorpus, fixtureCorpusRoot } from '../../helpers/corpus.js';

const root = corpusTranscriptsRoot;
const marot = 'marot__spotter/test/fixtures/transcripts';
const reliability = 'DRMacIver__claude-reliability/snapshot-tests/tests';
const swe = 'SWE-agent__SWE-agent';
const codex = 'codemie-ai__codemie-code/src/agents/plugins/codex/__tests__/fixtures';
const gemini = 'codemie-ai__codemie-code/tests/integration/metrics/fixtures/gemini';

// Counts checked by hand with a separate Python script over the raw JSON
// (unique tool_use ids per file; function_call + custom_tool_call +
// web_search_call response items; Gemini toolCalls; OpenHands agent actions
// with tool_call_metadata; SWE-agent trajectory actions).
const expected: [file: string, format: string, sessions: number, calls: number][] = [
  [`${marot}/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl`, 'claude-code', 1, 242],
  [`${marot}/258c7280-ae70-4798-800f-63464d01a85d.jsonl`, 'claude-code', 1, 186],
  [`${marot}/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl`, 'claude-code', 1, 2],
  [`${marot}/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-aac57f5.jsonl`, 'claude-code', 1, 12],
  [`${marot}/ae4a77f8-aedd-4bc1-888f-c94edc91af04/subagents/agent-acompact-946d2b.jsonl`, 'claude-code', 0, 0],
  [`${marot}/tool_heavy.jsonl`, 'claude-code', 1, 6],
  [`${marot}/subagent.jsonl`, 'claude-code', 1, 16],
  [`${marot}/short.jsonl`, 'claude-code', 1, 2],
  [`${reliability}/python-to-rust-port/transcript.jsonl`, 'claude-code', 1, 39],
  [`${reliability}/coverage-test-fix/transcript.jsonl`, 'claude-code', 1, 13],
  [`${reliability}/stop-hook-reflection-second-stop/transcript.jsonl`, 'claude-code', 0, 0],
  ['daaain__claude-code-log/test/test_data/todowrite_examples.jsonl', 'claude-code', 1, 3],
  ['daaain__claude-code-log/test/test_data/edge_cases.jsonl', 'claude-code', 2, 3],
  [`${codex}/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl`, 'codex', 1, 105],
  [`${codex}/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl`, 'codex', 1, 38],
  [`${gemini}/session-2025-12-01T21-45-5b959dae.json`, 'gemini', 1, 10],
  [`${gemini}/session-2026-01-16T11-01-file-ops-37b7abef.json`, 'gemini', 1, 14],
  ['All-Hands-AI__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl', 'openhands', 3, 105],
  ['All-Hands-AI__OpenHands/tests/runtime/trajs/basic.json', 'openhands', 1, 2],
  ['All-Hands-AI__OpenHands/tests/runtime/trajs/basic_gui_mode.json', 'openhands', 1, 4],
  ['All-Hands-AI__OpenHands/tests/runtime/trajs/wrong_initial_state.json', 'openhands', 1, 4],
  [`${swe}/trajectories/demonstrations/ctf/web/i_got_id_demo.traj`, 'swe-agent', 1, 21],
  [`${swe}/trajectories/demonstrations/function_calling_simple.traj`, 'swe-agent', 1, 5],
  [
    `${swe}/tests/test_data/trajectories/gpt4__swe-bench-dev-easy_first_only__default__t-0.00__p-0.95__c-3.00__install-1/pydicom__pydicom-1458.traj`,
    'swe-agent',
    1,
    12,
  ],
];

describeFullCorpus(
  'transcript readers on the real corpus',
  () => {
    it.each(expected)('%s: %s, %i sessions, %i calls', async (file, format, sessions, calls) => {
      const result = await readTranscriptFile(join(root, file));
      expect(result.format).toBe(format);
      expect(result.sessions.length).toBe(sessions);
      expect(result.sessions.reduce((sum, s) => sum + s.calls.length, 0)).toBe(calls);
    });

    it('reads a Claude Code subagent file as a session of its own', async () => {
      const result = await readTranscriptFile(join(root, `${marot}/258c7280-ae70-4798-800f-63464d01a85d/subagents/agent-a881341.jsonl`));
      expect(result.sessions[0]?.id).toBe('258c7280-ae70-4798-800f-63464d01a85d/a881341');
    });

    it('refines Bash by program, keeps call times, and finds Skill loads', async () => {
      const result = await readTranscriptFile(join(root, `${marot}/subagent.jsonl`));
      const bash = result.sessions[0]?.calls.find((c) => c.name === 'Bash');
      expect(bash?.program).toMatch(/^[A-Za-z0-9._+-]+$/);
      expect(bash?.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(result.uses).toEqual([
        {
          skill: 'handgemacht:create-beads',
          session: '491e126e-1e71-469c-ade2-fcc8af567c74',
          time: '2026-02-10T21:54:53.186Z',
        },
      ]);
    });

    it('counts the deliberately bad lines of edge_cases.jsonl instead of failing', async () => {
      const result = await readTranscriptFile(join(root, 'daaain__claude-code-log/test/test_data/edge_cases.jsonl'), {
        displayPath: 'edge_cases.jsonl',
      });
      expect(result.skipped).toEqual(
        expect.arrayContaining([
          {
            file: 'edge_cases.jsonl',
            reason: 'JSON lines that are not objects',
            count: 3,
            lines: [13, 15, 16],
          },
          {
            file: 'edge_cases.jsonl',
            reason: 'user records without a message',
            count: 2,
            lines: [10, 11],
          },
          {
            file: 'edge_cases.jsonl',
            reason: 'records claude-code does not know',
            count: 1,
            lines: [14],
          },
        ]),
      );
    });

    it('names SWE-agent tools by the first word of each action', async () => {
      const result = await readTranscriptFile(
        join(
          root,
          `${swe}/tests/test_data/trajectories/gpt4__swe-agent__test-repo__default_from_url__t-0.00__p-0.95__c-3.00__install-1/swe-agent__test-repo-i1.traj`,
        ),
      );
      expect(result.sessions[0]?.calls.map((c) => c.name)).toEqual(['find_file', 'open', 'edit', 'python', 'submit']);
    });

    it('names OpenHands calls by the model function and refines execute_bash', async () => {
      const result = await readTranscriptFile(join(root, 'All-Hands-AI__OpenHands/tests/runtime/trajs/wrong_initial_state.json'));
      expect(result.sessions[0]?.calls.map((c) => c.name)).toEqual(['str_replace_editor', 'execute_bash', 'str_replace_editor', 'finish']);
      expect(result.sessions[0]?.calls[1]?.program).toBeDefined();
    });

    it('reads Codex shell calls with their program and Gemini calls with their argument keys', async () => {
      const rollout = await readTranscriptFile(
        join(root, `${codex}/rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl`),
      );
      expect(rollout.sessions[0]?.id).toBe('019e1695-0522-7c83-8b39-0dd379793f80');
      expect(rollout.sessions[0]?.calls.filter((c) => c.name === 'exec_command').every((c) => c.program !== undefined)).toBe(true);
      expect(rollout.uses.map((u) => u.skill)).toEqual(['using-superpowers', 'browser', 'brainstorming', 'browser']);
      const session = await readTranscriptFile(join(root, `${gemini}/session-2025-12-01T21-45-5b959dae.json`));
      expect(session.sessions[0]?.calls[0]).toMatchObject({
        name: 'list_directory',
        shape: 'dir_path',
      });
    });
  },
  corpusTranscriptsRoot,
);

// The committed fixture transcripts: real files from three formats, read in every clone, corpus or not.
describe('transcript readers on the fixture transcripts', () => {
  const fixtures = join(fixtureCorpusRoot, 'transcripts');
  it.each([
    ['daaain__claude-code-log/test/test_data/todowrite_examples.jsonl', 'claude-code', 1, 3],
    [`${reliability}/hello-world-script/transcript.jsonl`, 'claude-code', 1, 2],
    [`${swe}/trajectories/demonstrations/function_calling_simple.traj`, 'swe-agent', 1, 5],
  ] as const)('%s: %s, %i sessions, %i calls', async (file, format, sessions, calls) => {
    const result = await readTranscriptFile(join(fixtures, file));
    expect(result.format).toBe(format);
    expect(result.sessions.length).toBe(sessions);
    expect(result.sessions.reduce((sum, s) => sum + s.calls.length, 0)).toBe(calls);
  });

  it('reads the SWE-agent demonstration as the tool calls it made', async () => {
    const result = await readTranscriptFile(join(fixtures, `${swe}/trajectories/demonstrations/function_calling_simple.traj`));
    expect(result.sessions[0]?.calls.map((c) => c.name)).toEqual(['find_file', 'open', 'edit', 'python', 'submit']);
  });
});
