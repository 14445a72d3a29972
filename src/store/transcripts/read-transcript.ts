import { open, readFile, stat } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';
import { homedir } from 'node:os';
import { basename, dirname, extname } from 'node:path';
import { Redactor } from '../../core/privacy/redact.js';
import { defaultRefine, type RefineMap } from '../../core/patterns/shape.js';
import type { TranscriptFormat } from '../../core/patterns/types.js';
import { SessionCollector, type FileReadResult } from './collector.js';
import { detectDocumentFormat, detectRecordFormat } from './detect-format.js';
import { formatReaders } from './formats.js';
import { readLineBatches } from './read-lines.js';
import { isObject, type JsonObject, type LineHandler, type RecordOutcome } from './records.js';

export interface ReadTranscriptOptions {
  /** Force a format instead of detecting it per file. */
  format?: TranscriptFormat;
  /** Which shell tools are refined by program (default `defaultRefine`); `false` for none. */
  refine?: RefineMap | false;
  /** A JSONL line longer than this is skipped and reported (32 MiB). */
  maxLineBytes?: number;
  /** A whole-file JSON format larger than this is skipped and reported (256 MiB). */
  maxDocumentBytes?: number;
  /** The path to name in reports (default: the path read). */
  displayPath?: string;
}

const mib = 1024 * 1024;

let redactor: Redactor | undefined;

/** One redactor per process, knowing this machine's home folder (beside the generic rules). */
function machineRedactor(): Redactor {
  if (redactor !== undefined) return redactor;
  redactor = new Redactor({ homes: [homedir()] });
  return redactor;
}

function formatBytes(bytes: number): string {
  if (bytes >= mib) return `${+(bytes / mib).toFixed(1)} MiB`;
  return bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}
const lineExtensions = new Set(['.jsonl', '.ndjson']);

type Mode = 'lines' | 'document';

async function sniffMode(path: string): Promise<Mode> {
  const ext = extname(path).toLowerCase();
  if (lineExtensions.has(ext)) return 'lines';
  if (ext === '.json' || ext === '.traj') return 'document';
  const handle = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8').trimStart();
    return head.startsWith('[') || /^\{\s*\n/.test(head) ? 'document' : 'lines';
  } finally {
    await handle.close();
  }
}

// Cline keeps one task a folder, `tasks/<id>/api_conversation_history.json`: the folder names the session.
const clineHistoryFile = 'api_conversation_history.json';
// The other files of a Cline task folder: UI state and metadata, no tool calls of their own.
const clineTaskFiles = new Set(['ui_messages.json', 'task_metadata.json', 'context_history.json', 'settings.json', 'claude_messages.json']);

function stemOf(path: string): string {
  const name = basename(path);
  if (name === clineHistoryFile) return basename(dirname(path));
  const ext = extname(name);
  return ext === '' ? name : name.slice(0, -ext.length);
}

function isClineTaskFile(path: string): boolean {
  return clineTaskFiles.has(basename(path));
}

function unknownReason(record: JsonObject, format: TranscriptFormat): string {
  const other = detectRecordFormat(record);
  if (other !== undefined && other !== format) return `lines in another format (${other}) inside a ${format} file`;
  return typeof record.type === 'string' ? `records of unknown type "${record.type.slice(0, 40)}"` : `records ${format} does not know`;
}

type Applier = ((record: JsonObject, sink: SessionCollector, line: number) => RecordOutcome) & Pick<LineHandler, 'finish'>;

/** Applies one record of a detected format; document formats take one session per line. */
function createApplier(format: TranscriptFormat, collector: SessionCollector, stem: string): Applier {
  const reader = formatReaders[format];
  if (reader.kind === 'lines') return reader.create();
  return (record: JsonObject, _sink: SessionCollector, line: number): RecordOutcome => {
    collector.defaultSession = `${stem}#${line}`;
    return reader.read(record, collector);
  };
}

async function readLineFile(path: string, collector: SessionCollector, options: ReadTranscriptOptions): Promise<void> {
  const maxLineBytes = options.maxLineBytes ?? 32 * mib;
  const stem = stemOf(path);
  let format = options.format;
  let apply = format === undefined ? undefined : createApplier(format, collector, stem);
  for await (const batch of readLineBatches(path, { maxLineBytes }))
    for (const event of batch) {
      collector.line = event.number;
      if (event.kind === 'too-long') {
        collector.skip(`lines longer than ${formatBytes(maxLineBytes)}`);
        continue;
      }
      if (event.text.trim() === '') continue;
      if (!event.utf8) collector.skip('lines with non-UTF-8 bytes (read with U+FFFD)');
      let value: unknown;
      try {
        value = JSON.parse(event.text);
      } catch {
        collector.skip(event.last ? 'truncated last line (not JSON)' : 'lines that are not JSON');
        continue;
      }
      if (!isObject(value)) {
        collector.skip('JSON lines that are not objects');
        continue;
      }
      if (format === undefined || apply === undefined) {
        format = detectRecordFormat(value);
        if (format === undefined) {
          collector.skip('lines of no known transcript format');
          continue;
        }
        apply = createApplier(format, collector, stem);
      }
      collector.format = format;
      if (apply(value, collector, event.number) === 'unknown') collector.skip(unknownReason(value, format));
    }
  // What a finishing reader reports belongs to the session, not to its last line.
  collector.line = undefined;
  apply?.finish?.(collector);
}

/**
 * A file that failed to parse whole may be JSONL: it has more than one line,
 * and its first line is not the lone `{` or `[` of a pretty-printed document
 * (an `opencode export` cut short is a truncated document, not 40 bad lines).
 */
function holdsLines(bytes: Buffer): boolean {
  const newline = bytes.indexOf(10);
  if (newline < 0 || newline === bytes.length - 1) return false;
  return !/^\s*[[{]\s*$/.test(bytes.subarray(0, newline).toString('utf8'));
}

/** Reads a whole-file JSON format; returns false when the file turns out to be JSONL. */
async function readDocumentFile(path: string, collector: SessionCollector, options: ReadTranscriptOptions): Promise<boolean> {
  const maxBytes = options.maxDocumentBytes ?? 256 * mib;
  const { size } = await stat(path);
  if (size > maxBytes) {
    collector.skip(`files over ${formatBytes(maxBytes)} in a whole-file JSON format (not read)`);
    return true;
  }
  const bytes = await readFile(path);
  if (!isUtf8(bytes)) collector.skip('files with non-UTF-8 bytes (read with U+FFFD)');
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    if (extname(path).toLowerCase() !== '.traj' && holdsLines(bytes)) return false;
    collector.skip(size === 0 ? 'empty files' : 'files that are not JSON (truncated?)');
    return true;
  }
  const format = options.format ?? detectDocumentFormat(doc);
  if (format === undefined) {
    collector.skip(
      isClineTaskFile(path)
        ? 'Cline task files other than api_conversation_history.json (no tool calls)'
        : 'files of no known transcript format',
    );
    return true;
  }
  collector.format = format;
  const reader = formatReaders[format];
  if (reader.kind === 'document') {
    if (reader.read(doc, collector) === 'unknown') collector.skip(`files that are not ${format} documents`);
    return true;
  }
  const handle = reader.create();
  for (const record of Array.isArray(doc) ? doc : [doc]) {
    if (!isObject(record)) collector.skip('records that are not objects');
    else if (handle(record, collector) === 'unknown') collector.skip(unknownReason(record, format));
  }
  handle.finish?.(collector);
  return true;
}

/**
 * Reads one transcript file into sessions of tool calls. Never throws on bad
 * content: every line or file that could not be used is counted in `skipped`
 * with its reason. Memory: JSONL is streamed (one line at a time, at most
 * `maxLineBytes`, plus the file's tool calls); whole-file JSON formats are
 * read whole, up to `maxDocumentBytes`. Given `onPart`, sessions are handed to it before the file ends (a file of
 * many sessions is then held a few thousand sessions at a time: `SessionCollector`); the result is the file's last part.
 */
export async function readTranscriptFile(
  path: string,
  options: ReadTranscriptOptions = {},
  onPart?: (part: FileReadResult) => void,
): Promise<FileReadResult> {
  const collector = new SessionCollector(
    options.displayPath ?? path,
    options.refine ?? defaultRefine,
    stemOf(path),
    machineRedactor(),
    onPart,
  );
  const mode = await sniffMode(path);
  if (mode === 'document' && (await readDocumentFile(path, collector, options))) return collector.finish();
  await readLineFile(path, collector, options);
  return collector.finish();
}
