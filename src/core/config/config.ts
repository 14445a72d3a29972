import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { isMap, parseDocument } from 'yaml';
import configSchema from '../../../schemas/config.schema.json' with { type: 'json' };
import { excerpt, finding, type Finding } from '../findings.js';
import type { ProfileName } from '../schema/types.js';

/** `.skillgarden/config.yaml` with every default applied (DESIGN §6). */
export interface Config {
  /** The skill roots as written (a folder, a glob or a list); undefined: detected from the repository's layout. */
  skills_dir?: string | string[];
  /** How far a skill's relative links may reach: its own folder, or any skill of the library. */
  links: LinkScope;
  profile: ProfileName;
  enabled: boolean;
  paused: boolean;
  interval_hours: number;
  min_idle_hours: number;
  stale_after_days: number;
  archive_after_days: number;
  consolidate: boolean;
  prune_bundled: boolean;
  protected: string[];
  references: string[];
  transcripts: string[];
  patterns: Record<string, unknown>;
  scan: Record<string, unknown>;
  consolidation: Record<string, unknown>;
}

export type LinkScope = 'skill' | 'library';

export const defaultConfig: Readonly<Config> = Object.freeze({
  links: 'library',
  profile: 'portable',
  enabled: true,
  paused: false,
  interval_hours: 168,
  min_idle_hours: 2,
  stale_after_days: 30,
  archive_after_days: 90,
  consolidate: false,
  prune_bundled: true,
  protected: ['plan'],
  references: [],
  transcripts: [],
  patterns: {},
  scan: {},
  consolidation: {},
});

let validate: ReturnType<Ajv2020['compile']> | undefined;

/** Parses config.yaml. A bad value is an error naming the key and its line, never a silent fallback. */
export function parseConfig(text: string, file: string): { config: Config; findings: Finding[] } {
  const findings: Finding[] = [];
  const document = parseDocument(text, { prettyErrors: false });
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length;
  for (const error of document.errors) {
    findings.push(
      finding({
        code: 'config/yaml-syntax',
        severity: 'error',
        file,
        line: lineOf(error.pos[0]),
        column: 1,
        message: error.message.split('\n')[0] ?? 'YAML error',
        hint: 'Fix the YAML syntax.',
      }),
    );
  }
  if (findings.length > 0) return { config: { ...defaultConfig }, findings };
  const data: unknown = document.contents === null ? {} : document.toJS({ maxAliasCount: 50 });
  validate ??= new Ajv2020({ allErrors: true, strict: true, strictTypes: false }).compile(configSchema);
  if (!validate(data)) {
    for (const error of validate.errors ?? []) findings.push(configFinding(error, file, document, lineOf));
    return { config: { ...defaultConfig }, findings };
  }
  const config = { ...defaultConfig, ...(data as Partial<Config>) };
  if (config.archive_after_days < config.stale_after_days) {
    findings.push(
      finding({
        code: 'config/invalid',
        severity: 'error',
        file,
        line: keyLine(document, 'archive_after_days', lineOf),
        column: 1,
        message: `archive_after_days (${config.archive_after_days}) is shorter than stale_after_days (${config.stale_after_days})`,
        hint: 'A skill is marked stale before it is archived: make archive_after_days the larger.',
      }),
    );
  }
  return { config, findings };
}

function configFinding(
  error: ErrorObject,
  file: string,
  document: ReturnType<typeof parseDocument>,
  lineOf: (offset: number) => number,
): Finding {
  const key = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : (error.instancePath.split('/')[1] ?? '');
  const unknown = error.keyword === 'additionalProperties';
  return finding({
    code: unknown ? 'config/unknown-key' : 'config/invalid',
    severity: 'error',
    file,
    line: keyLine(document, key, lineOf),
    column: 1,
    message: unknown
      ? `unknown setting "${excerpt(key)}"`
      : `${key}${error.instancePath
          .split('/')
          .slice(2)
          .map((p) => `.${p}`)
          .join('')} ${error.message ?? 'is invalid'}`,
    hint: unknown
      ? `Known settings: ${Object.keys(configSchema.properties).join(', ')}.`
      : `See schemas/config.schema.json: ${(configSchema.properties as Record<string, { description?: string }>)[key]?.description ?? ''}`,
  });
}

function keyLine(document: ReturnType<typeof parseDocument>, key: string, lineOf: (offset: number) => number): number {
  if (!isMap(document.contents)) return 1;
  const pair = document.contents.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  return range ? lineOf(range[0]) : 1;
}
