import type { RecordSink } from './collector.js';
import type { JsonObject, RecordOutcome } from './records.js';

/**
 * skillgarden's own compact JSONL: one tool call a line,
 * `{"session": "s1", "tool": "Read", "args": {...}, "ts": "2026-…"}`, or what the
 * person asked, `{"session": "s1", "user": "fix the failing test"}`
 * (schemas/compact-transcript.schema.json). Sessions may interleave.
 */
export function createCompactHandler(): (record: JsonObject, sink: RecordSink) => RecordOutcome {
  return (record, sink) => {
    if (!('session' in record) || !('tool' in record || 'user' in record)) return 'unknown';
    const session = typeof record.session === 'string' || typeof record.session === 'number' ? String(record.session) : undefined;
    if (session === undefined || session === '') {
      sink.skip('compact records without a session');
      return 'handled';
    }
    if ('tool' in record) sink.call(session, record.tool, record.args, record.ts);
    else sink.userText(session, record.user, record.ts);
    return 'handled';
  };
}
