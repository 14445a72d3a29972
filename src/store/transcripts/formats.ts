import type { TranscriptFormat } from '../../core/patterns/types.js';
import type { RecordSink } from './collector.js';
import { readChatDocument } from './format-chat.js';
import { createClaudeCodeHandler } from './format-claude-code.js';
import { createCodexHandler } from './format-codex.js';
import { createCompactHandler } from './format-compact.js';
import { readGeminiDocument } from './format-gemini.js';
import { readHermesDocument } from './format-hermes.js';
import { readOpenHandsDocument } from './format-openhands.js';
import { readSweAgentDocument } from './format-swe-agent.js';
import type { DocumentHandler, JsonObject, RecordOutcome } from './records.js';

/**
 * How to read a format. Line formats read one record a line (a file is a
 * stream of records); document formats read a whole session from one JSON
 * value (a whole file, or one line of a JSONL export).
 */
export type FormatReader =
  | {
      kind: 'lines';
      create: () => (record: JsonObject, sink: RecordSink) => RecordOutcome;
    }
  | { kind: 'document'; read: DocumentHandler };

export const formatReaders: Record<TranscriptFormat, FormatReader> = {
  'claude-code': { kind: 'lines', create: createClaudeCodeHandler },
  codex: { kind: 'lines', create: createCodexHandler },
  compact: { kind: 'lines', create: createCompactHandler },
  gemini: { kind: 'document', read: readGeminiDocument },
  chat: { kind: 'document', read: readChatDocument },
  'swe-agent': { kind: 'document', read: readSweAgentDocument },
  openhands: { kind: 'document', read: readOpenHandsDocument },
  hermes: { kind: 'document', read: readHermesDocument },
};
