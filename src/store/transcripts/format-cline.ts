import type { RecordSink } from './collector.js';
import { isObject, type JsonObject, type RecordOutcome } from './records.js';

/**
 * Cline's tools (cline/cline `src/shared/tools.ts`, `ClineDefaultTool`). In
 * its XML protocol a call is the tool's tag in the assistant's text, each
 * parameter a child tag: `<read_file>\n<path>src/a.ts</path>\n</read_file>`.
 */
const clineTools = [
  'ask_followup_question',
  'attempt_completion',
  'execute_command',
  'replace_in_file',
  'read_file',
  'write_to_file',
  'search_files',
  'search_subagent',
  'list_files',
  'list_code_definition_names',
  'browser_action',
  'use_mcp_tool',
  'access_mcp_resource',
  'load_mcp_documentation',
  'new_task',
  'plan_mode_respond',
  'act_mode_respond',
  'focus_chain',
  'web_fetch',
  'web_search',
  'condense',
  'summarize_task',
  'report_bug',
  'new_rule',
  'apply_patch',
  'generate_explanation',
];
const toolTag = new RegExp(`<(${clineTools.join('|')})>([\\s\\S]*?)(</\\1>|$)`, 'g');
const paramTag = /<([a-z_]+)>([\s\S]*?)<\/\1>/g;
// The person's words in a user turn: the task, and answers or feedback given while it ran.
const requestTag = /<(task|feedback|answer|user_message)>([\s\S]*?)<\/\1>/g;

/** True for a list of Anthropic-style messages as Cline stores them (tool blocks, or its `<task>` wrapper). */
export function isClineHistory(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isObject(message) &&
      Array.isArray(message.content) &&
      message.content.some(
        (block) =>
          isObject(block) &&
          (block.type === 'tool_use' || block.type === 'tool_result' || (typeof block.text === 'string' && block.text.includes('<task>'))),
      ),
  );
}

function textBlocks(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter((b): b is JsonObject => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
}

function readXmlCalls(text: string, session: string, time: unknown, sink: RecordSink): void {
  for (const match of text.matchAll(toolTag)) {
    if (match[3] === '') {
      sink.skip('tool tags that are never closed (an interrupted reply)');
      continue;
    }
    const args: Record<string, string> = {};
    for (const param of (match[2] ?? '').matchAll(paramTag)) args[param[1] as string] = (param[2] ?? '').replace(/^\n|\n$/g, '');
    sink.call(session, match[1], args, time);
  }
}

/**
 * Cline task histories (`<globalStorage>/saoudrizwan.claude-dev/tasks/<id>/api_conversation_history.json`;
 * cline/cline `src/core/storage/disk.ts` writes it, the message type is
 * `ClineStorageMessage`): a JSON list of Anthropic-style messages `{role,
 * content, ts?}`. Calls are `tool_use` blocks (native tool calling) or, in
 * Cline's XML protocol, tool tags in the assistant's text; both are read.
 * The task folder's name is the session.
 */
export function readClineDocument(doc: unknown, sink: RecordSink): RecordOutcome {
  if (!Array.isArray(doc)) return 'unknown';
  const session = sink.defaultSession;
  const seen = new Set<string>();
  for (const message of doc) {
    if (!isObject(message)) {
      sink.skip('messages that are not objects');
      continue;
    }
    if (message.role === 'user') {
      // Tool results fill most user turns; only a tag can hold the person's words.
      for (const text of textBlocks(message.content)) {
        if (!text.includes('<')) continue;
        for (const request of text.matchAll(requestTag)) sink.userText(session, request[2], message.ts);
      }
      sink.userText(session, undefined, message.ts);
      continue;
    }
    if (message.role !== 'assistant') continue;
    for (const text of textBlocks(message.content)) if (text.includes('<')) readXmlCalls(text, session, message.ts, sink);
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'tool_use') continue;
      const id = typeof block.id === 'string' ? block.id : undefined;
      if (id !== undefined && seen.has(id)) continue;
      if (id !== undefined) seen.add(id);
      sink.call(session, block.name, block.input, message.ts);
    }
  }
  return 'handled';
}
