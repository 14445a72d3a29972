import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DetectReport } from '../../../src/core/patterns/types.js';
import { cli } from '../../helpers/cli.js';
import { fixtureCorpusRoot } from '../../helpers/corpus.js';
import { tempDir } from '../../helpers/tmp.js';

const fixtures = join(import.meta.dirname, '../../fixtures/transcripts');

describe('skillgarden detect over a folder mixing every transcript format', () => {
  it('reads each file with its own reader and accounts for every file it could not use', async () => {
    const repo = tempDir('sg-detect-mixed-');
    const folder = join(repo, 'transcripts');
    cpSync(fixtures, folder, { recursive: true });
    mkdirSync(join(folder, 'claude'));
    mkdirSync(join(folder, 'swe'));
    cpSync(
      join(fixtureCorpusRoot, 'transcripts/daaain__claude-code-log/test/test_data/todowrite_examples.jsonl'),
      join(folder, 'claude/todowrite_examples.jsonl'),
    );
    cpSync(
      join(fixtureCorpusRoot, 'transcripts/SWE-agent__SWE-agent/trajectories/demonstrations/function_calling_simple.traj'),
      join(folder, 'swe/function_calling_simple.traj'),
    );

    const run = await cli(['--json', 'detect', '--transcripts', 'transcripts'], { cwd: repo });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DetectReport;
    // 8 files of the four new formats (two of them Cline's task side files), a Claude Code session, a SWE-agent trajectory.
    expect(report.files).toBe(10);
    // Sessions with calls: Gemini 1, Cursor 1, OpenCode 1 (the other export is cut short), Cline 2, Claude Code 1, SWE-agent 1.
    expect(report.sessions).toBe(7);
    expect(report.calls).toBe(5 + 6 + 7 + 5 + 4 + 3 + 5);
    expect(report.uses.map((u) => [u.skill, u.session])).toEqual([['release-notes', 'ses_4f1b2c3d9e8fAbCdEfGh1234']]);
    // Each entry names its file; in JSONL files, the lines too.
    const skipped = report.skipped.map((s) => `${s.file}: ${s.reason} ×${s.count}${s.lines ? ` at ${s.lines.join(', ')}` : ''}`).sort();
    expect(skipped).toEqual(
      [
        'transcripts/cline/tasks/1764493512000/api_conversation_history.json: messages that are not objects ×1',
        'transcripts/cline/tasks/1764493512000/api_conversation_history.json: tool tags that are never closed (an interrupted reply) ×1',
        'transcripts/cline/tasks/1764493512000/task_metadata.json: Cline task files other than api_conversation_history.json (no tool calls) ×1',
        'transcripts/cline/tasks/1764493512000/ui_messages.json: Cline task files other than api_conversation_history.json (no tool calls) ×1',
        'transcripts/cursor/agent-transcripts/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71.jsonl: tool calls without a name ×1 at 6',
        'transcripts/cursor/agent-transcripts/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71/d5b1c8e2-7a4f-4e3b-9c1d-2f6a8b0e4c71.jsonl: truncated last line (not JSON) ×1 at 14',
        'transcripts/gemini/session-2026-11-30T09-12-3f2a9c1e.jsonl: lines that are not JSON ×1 at 7',
        'transcripts/gemini/session-2026-11-30T09-12-3f2a9c1e.jsonl: tool calls without a name ×1',
        'transcripts/opencode/ses_4f1b2c3d9e8fAbCdEfGh1234.json: message parts that are not objects ×1',
        'transcripts/opencode/ses_4f1b2c3d9e8fAbCdEfGh1234.json: messages without info and parts ×1',
        'transcripts/opencode/ses_7a6b5c4d3e2fZyXwVuTs9876.json: files that are not JSON (truncated?) ×1',
      ].sort(),
    );
  });
});
