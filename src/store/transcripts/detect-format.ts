import type { TranscriptFormat } from '../../core/patterns/types.js';
import { isClineHistory } from './format-cline.js';
import { codexItemTypes, codexRecordTypes, isLegacyCodexHeader } from './format-codex.js';
import { isCursorRecord } from './format-cursor.js';
import { isGeminiHeader, isGeminiUpdate } from './format-gemini.js';
import { isOpenCodeExport } from './format-opencode.js';
import { isObject, type JsonObject } from './records.js';

const claudeTypes = new Set(['user', 'assistant', 'system', 'summary', 'progress', 'file-history-snapshot', 'queue-operation']);

function isGeminiSession(record: JsonObject, messages: unknown[]): boolean {
  if ('projectHash' in record) return true;
  const first = messages.find(isObject);
  return first !== undefined && 'type' in first && !('role' in first);
}

/** The format one JSON object (a JSONL record, or a whole document) is written in, if any. */
export function detectRecordFormat(record: JsonObject): TranscriptFormat | undefined {
  if ('session' in record && ('tool' in record || typeof record.user === 'string')) return 'compact';
  if (typeof record.type === 'string' && 'payload' in record && codexRecordTypes.has(record.type)) return 'codex';
  if (isLegacyCodexHeader(record)) return 'codex';
  if (typeof record.type === 'string' && codexItemTypes.has(record.type) && !('sessionId' in record) && !('message' in record))
    return 'codex';
  if (Array.isArray(record.conversations)) return 'hermes';
  if (Array.isArray(record.trajectory)) return 'swe-agent';
  if (Array.isArray(record.history)) {
    const first = record.history.find(isObject);
    if ('instance_id' in record || (first !== undefined && 'source' in first)) return 'openhands';
    return 'swe-agent';
  }
  if (isGeminiHeader(record) || isGeminiUpdate(record)) return 'gemini';
  if (isOpenCodeExport(record)) return 'opencode';
  if (Array.isArray(record.messages)) return isGeminiSession(record, record.messages) ? 'gemini' : 'chat';
  if (isCursorRecord(record)) return 'cursor';
  if (typeof record.type === 'string' && (typeof record.sessionId === 'string' || claudeTypes.has(record.type))) return 'claude-code';
  return undefined;
}

/** The format of a whole parsed JSON file. */
export function detectDocumentFormat(doc: unknown): TranscriptFormat | undefined {
  if (Array.isArray(doc)) {
    const first = doc.find(isObject);
    if (first === undefined) return undefined;
    if ('source' in first && ('action' in first || 'observation' in first)) return 'openhands';
    if ('role' in first) return isClineHistory(doc) ? 'cline' : 'chat';
    return detectRecordFormat(first);
  }
  return isObject(doc) ? detectRecordFormat(doc) : undefined;
}
