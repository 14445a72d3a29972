import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One planted tool call: a shell command (its result an error or not), or another tool with its input. */
export interface PlantCall {
  command?: string;
  tool?: string;
  input?: Record<string, unknown>;
  error?: boolean;
}

/** One planted session: what the person asked, the skill it loaded (if any), its calls, when it began. */
export interface PlantSession {
  id: string;
  /** ISO time of the first record; each later record one second on. */
  time: string;
  request?: string;
  /** Loaded first: Claude Code's Skill tool; in Codex a read of its SKILL.md. */
  load?: string;
  calls: PlantCall[];
}

function clock(start: string): () => string {
  let at = Date.parse(start);
  return () => {
    const time = new Date(at).toISOString();
    at += 1000;
    return time;
  };
}

/** A Claude Code session file (`~/.claude/projects/…/<id>.jsonl`): user text, tool_use blocks, tool_result blocks. */
export function renderClaudeCode(session: PlantSession): string {
  const next = clock(session.time);
  const lines: unknown[] = [];
  const base = { sessionId: session.id, cwd: '/work/app', version: '2.0.14' };
  if (session.request !== undefined)
    lines.push({ ...base, type: 'user', timestamp: next(), message: { role: 'user', content: session.request } });
  const calls: PlantCall[] =
    session.load === undefined ? session.calls : [{ tool: 'Skill', input: { skill: session.load } }, ...session.calls];
  calls.forEach((call, i) => {
    const id = `toolu_${session.id}_${i}`;
    const name = call.tool ?? 'Bash';
    const input = call.input ?? { command: call.command, description: 'run it' };
    lines.push({
      ...base,
      type: 'assistant',
      timestamp: next(),
      message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    const result = {
      type: 'tool_result',
      tool_use_id: id,
      content: call.error === true ? 'Error: exit 1' : 'ok',
      ...(call.error === true ? { is_error: true } : {}),
    };
    lines.push({ ...base, type: 'user', timestamp: next(), message: { role: 'user', content: [result] } });
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

/** A Codex rollout (`~/.codex/sessions/…/rollout-*.jsonl`): session_meta, a user message, exec_command calls and their exits. */
export function renderCodex(session: PlantSession): string {
  const next = clock(session.time);
  const item = (payload: Record<string, unknown>) => ({ timestamp: next(), type: 'response_item', payload });
  const lines: unknown[] = [
    { timestamp: next(), type: 'session_meta', payload: { id: session.id, cwd: '/work/app', originator: 'codex_cli_rs' } },
  ];
  if (session.request !== undefined)
    lines.push(item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: session.request }] }));
  const load: PlantCall[] = session.load === undefined ? [] : [{ command: `sed -n 1,200p ~/.codex/skills/${session.load}/SKILL.md` }];
  [...load, ...session.calls].forEach((call, i) => {
    const id = `call_${session.id}_${i}`;
    const args = call.command === undefined ? (call.input ?? {}) : { cmd: call.command, workdir: '/work/app' };
    lines.push(
      item({
        type: 'function_call',
        name: call.command === undefined ? (call.tool ?? 'tool') : 'exec_command',
        arguments: JSON.stringify(args),
        call_id: id,
      }),
    );
    lines.push(
      item({ type: 'function_call_output', call_id: id, output: `Process exited with code ${call.error === true ? 1 : 0}\nOutput:\n` }),
    );
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

export type PlantFormat = 'claude-code' | 'codex';

/** Writes each session as its own file under `root` (`claude/<id>.jsonl`, `codex/rollout-<id>.jsonl`); returns the paths written. */
export function plantSessions(root: string, format: PlantFormat, sessions: readonly PlantSession[]): string[] {
  return sessions.map((session) => {
    const path =
      format === 'claude-code' ? join(root, 'claude', `${session.id}.jsonl`) : join(root, 'codex', `rollout-${session.id}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, format === 'claude-code' ? renderClaudeCode(session) : renderCodex(session));
    return path;
  });
}
