import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { isMap, parseDocument } from 'yaml';
import configSchema from '../../../schemas/config.schema.json' with { type: 'json' };
// ajv standalone code made from the schema at build time (scripts/generate-validators.ts): no compiling per process.
import { config as generatedValidate } from './config-validator.generated.js';
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

const validate = generatedValidate as unknown as ValidateFunction;

export interface ParsedConfig {
  /** The settings; a key whose value is invalid holds its default here, and is named in `invalidKeys`. */
  config: Config;
  findings: Finding[];
  /**
   * Top-level keys whose written value is invalid (`*` when the file is not
   * YAML at all). A command that needs one of them refuses, naming it; one
   * that does not (reading skills with a bad `scan:` policy) warns and goes on.
   */
  invalidKeys: string[];
}

/** Parses config.yaml. A bad value is an error naming the key and its line, never a silent fallback. */
export function parseConfig(text: string, file: string): ParsedConfig {
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
  if (findings.length > 0) return { config: { ...defaultConfig }, findings, invalidKeys: ['*'] };
  let data: unknown;
  try {
    data = document.contents === null ? {} : document.toJS({ maxAliasCount: 50 });
  } catch (error) {
    findings.push(
      finding({ code: 'config/yaml-syntax', severity: 'error', file, line: 1, column: 1, message: String(error), hint: 'Fix the YAML.' }),
    );
    return { config: { ...defaultConfig }, findings, invalidKeys: ['*'] };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    const message = 'the settings file must be a mapping of `key: value` lines';
    findings.push(
      finding({ code: 'config/invalid', severity: 'error', file, line: 1, column: 1, message, hint: 'See schemas/config.schema.json.' }),
    );
    return { config: { ...defaultConfig }, findings, invalidKeys: ['*'] };
  }
  const invalid = new Set<string>();
  if (!validate(data)) {
    for (const error of validate.errors ?? []) {
      const found = configFinding(error, file, document, lineOf);
      findings.push(found.finding);
      invalid.add(found.key);
    }
  }
  // Keys with a valid value are kept; an invalid one falls back to its default, and is reported.
  const written = Object.fromEntries(
    Object.entries(data as Record<string, unknown>).filter(([key]) => key in defaultConfig && !invalid.has(key)),
  );
  const config = { ...defaultConfig, ...(written as Partial<Config>) };
  if (config.archive_after_days < config.stale_after_days) {
    invalid.add('archive_after_days');
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
  return { config, findings, invalidKeys: [...invalid].sort() };
}

function configFinding(
  error: ErrorObject,
  file: string,
  document: ReturnType<typeof parseDocument>,
  lineOf: (offset: number) => number,
): { finding: Finding; key: string } {
  const unknown = error.keyword === 'additionalProperties';
  const path = error.instancePath.split('/').slice(1);
  // The top-level key the error is under: an unknown nested key (scan.polcy) makes its parent invalid.
  const key = path[0] ?? (unknown ? String(error.params.additionalProperty) : '');
  const named = [...path, ...(unknown ? [String(error.params.additionalProperty)] : [])].join('.');
  const result = finding({
    code: unknown ? 'config/unknown-key' : 'config/invalid',
    severity: 'error',
    file,
    line: keyLine(document, key, lineOf),
    column: 1,
    message: unknown
      ? `unknown setting "${excerpt(named)}"`
      : `${excerpt(named)} ${error.message ?? 'is invalid'}${error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).join(', ')})` : ''}`,
    hint: unknown
      ? path.length === 0
        ? `Known settings: ${Object.keys(configSchema.properties).join(', ')}.`
        : `Check the spelling under ${path.join('.')} against schemas/${key}-config.schema.json.`
      : `See schemas/config.schema.json: ${(configSchema.properties as Record<string, { description?: string }>)[key]?.description ?? ''}`,
  });
  return { finding: result, key };
}

function keyLine(document: ReturnType<typeof parseDocument>, key: string, lineOf: (offset: number) => number): number {
  if (!isMap(document.contents)) return 1;
  const pair = document.contents.items.find((item) => (item.key as { value?: unknown } | null)?.value === key);
  const range = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
  return range ? lineOf(range[0]) : 1;
}
