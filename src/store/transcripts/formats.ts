import type { TranscriptFormat } from '../../core/patterns/types.js';
import { readChatDocument } from './format-chat.js';
import { createClaudeCodeHandler } from './format-claude-code.js';
import { createCodexHandler } from './format-codex.js';
import { createCompactHandler } from './format-compact.js';
import { createCursorHandler } from './format-cursor.js';
import { createGeminiHandler } from './format-gemini.js';
import { readClineDocument } from './format-cline.js';
import { readOpenCodeDocument } from './format-opencode.js';
import { readHermesDocument } from './format-hermes.js';
import { readOpenHandsDocument } from './format-openhands.js';
import { readSweAgentDocument } from './format-swe-agent.js';
import type { DocumentHandler, LineHandler } from './records.js';

/**
 * How to read a format. Line formats read one record a line (a file is a
 * stream of records); document formats read a whole session from one JSON
 * value (a whole file, or one line of a JSONL export).
 */
export type FormatReader = { kind: 'lines'; create: () => LineHandler } | { kind: 'document'; read: DocumentHandler };

export const formatReaders: Record<TranscriptFormat, FormatReader> = {
  'claude-code': { kind: 'lines', create: createClaudeCodeHandler },
  codex: { kind: 'lines', create: createCodexHandler },
  compact: { kind: 'lines', create: createCompactHandler },
  gemini: { kind: 'lines', create: createGeminiHandler },
  cursor: { kind: 'lines', create: createCursorHandler },
  opencode: { kind: 'document', read: readOpenCodeDocument },
  cline: { kind: 'document', read: readClineDocument },
  chat: { kind: 'document', read: readChatDocument },
  'swe-agent': { kind: 'document', read: readSweAgentDocument },
  openhands: { kind: 'document', read: readOpenHandsDocument },
  hermes: { kind: 'document', read: readHermesDocument },
};
