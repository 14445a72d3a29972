/**
 * Claude Code's OpenTelemetry log events, as an OTLP JSON export holds them
 * (`{"resourceLogs":[{"scopeLogs":[{"logRecords":[…]}]}]}`, one document or
 * one per line as the collector's file exporter writes). A skill use is the
 * event `claude_code.skill_activated` (the record's body, or `event.name`
 * `skill_activated`), naming the skill in `skill.name`.
 */
export interface SkillActivation {
  skill: string;
  /** ISO-8601, UTC, whole seconds. */
  at: string;
  session: string | undefined;
}

export interface OtelImport {
  activations: SkillActivation[];
  /** Log records of other events: not uses, counted so the user sees the file was read. */
  otherEvents: number;
  /** What could not be read: a line that is not JSON, an activation without a skill or a time. */
  problems: { line: number; reason: string }[];
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
interface LogRecord {
  timeUnixNano?: string | number;
  observedTimeUnixNano?: string | number;
  body?: AnyValue;
  attributes?: { key?: string; value?: AnyValue }[];
}

export function parseOtlpSkillEvents(text: string): OtelImport {
  const result: OtelImport = { activations: [], otherEvents: 0, problems: [] };
  const trimmed = text.trim();
  // One JSON document, or JSON Lines: try the whole first, then line by line.
  const documents: { line: number; data: unknown }[] = [];
  try {
    documents.push({ line: 1, data: JSON.parse(trimmed) });
  } catch {
    text.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      try {
        documents.push({ line: i + 1, data: JSON.parse(raw) });
      } catch (error) {
        result.problems.push({ line: i + 1, reason: `not JSON: ${(error as Error).message}` });
      }
    });
  }
  for (const { line, data } of documents) {
    const resourceLogs = (data as { resourceLogs?: unknown }).resourceLogs;
    if (!Array.isArray(resourceLogs)) {
      result.problems.push({ line, reason: 'not an OTLP logs export (no resourceLogs)' });
      continue;
    }
    for (const resource of resourceLogs as { resource?: { attributes?: LogRecord['attributes'] }; scopeLogs?: unknown }[]) {
      const resourceSession = attribute(resource.resource?.attributes, 'session.id');
      for (const scope of asArray(resource.scopeLogs) as { logRecords?: unknown }[]) {
        for (const record of asArray(scope.logRecords) as LogRecord[]) readRecord(record, line, resourceSession, result);
      }
    }
  }
  result.problems.sort((a, b) => a.line - b.line);
  return result;
}

function readRecord(record: LogRecord, line: number, resourceSession: string | undefined, result: OtelImport): void {
  const name = attribute(record.attributes, 'event.name') ?? record.body?.stringValue ?? '';
  if (name !== 'skill_activated' && name !== 'claude_code.skill_activated') {
    result.otherEvents += 1;
    return;
  }
  const skill = attribute(record.attributes, 'skill.name') ?? attribute(record.attributes, 'skill_name');
  const at = timeOf(attribute(record.attributes, 'event.timestamp'), record.timeUnixNano ?? record.observedTimeUnixNano);
  if (!skill) result.problems.push({ line, reason: 'a skill_activated event without skill.name' });
  else if (!at) result.problems.push({ line, reason: `the skill_activated event of ${skill} has no time` });
  else result.activations.push({ skill, at, session: attribute(record.attributes, 'session.id') ?? resourceSession });
}

function attribute(list: LogRecord['attributes'], key: string): string | undefined {
  const value = list?.find((a) => a.key === key)?.value;
  if (!value) return undefined;
  const v = value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue;
  return v === undefined ? undefined : String(v);
}

function timeOf(iso: string | undefined, nanos: string | number | undefined): string | undefined {
  const fromIso = iso ? Date.parse(iso) : Number.NaN;
  const ms = Number.isFinite(fromIso) ? fromIso : nanos !== undefined && Number(nanos) > 0 ? Math.floor(Number(nanos) / 1e6) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
