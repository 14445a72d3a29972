import type { RecordSink } from './collector.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `handled` when the record was understood (even if part of it was skipped), `unknown` otherwise. */
export type RecordOutcome = 'handled' | 'unknown';

/** Reads one whole document (a file, or one JSONL line holding a whole session). */
export type DocumentHandler = (doc: unknown, sink: RecordSink) => RecordOutcome;

/** Reads one record; `finish` runs after the last one, for formats whose later lines rewrite earlier ones (Gemini). */
export type LineHandler = ((record: JsonObject, sink: RecordSink) => RecordOutcome) & { finish?: (sink: RecordSink) => void };

/** Arguments that arrive as a JSON string (OpenAI function calls); undefined when they are not JSON. */
export function parseArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** The text of a message's content: a string, or the `text` of its text blocks. */
export function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (
      isObject(block) &&
      typeof block.text === 'string' &&
      (block.type === 'text' || block.type === 'input_text' || block.type === undefined)
    ) {
      return block.text;
    }
  }
  return undefined;
}

export function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
