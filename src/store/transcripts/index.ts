export { readTranscriptFile, type ReadTranscriptOptions } from './read-transcript.js';
export { expandTranscriptPaths, type ExpandOptions, type ExpandResult } from './expand-paths.js';
export { detectDocumentFormat, detectRecordFormat } from './detect-format.js';
export { readLines, type LineEvent, type ReadLinesOptions } from './read-lines.js';
export { readTranscriptFiles, type ReadTranscriptsOptions } from './read-transcripts.js';
export type { FileReadResult } from './collector.js';
