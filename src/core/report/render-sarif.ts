import type { Finding } from '../findings.js';

/** Where code scanning and other SARIF readers find the 2.1.0 schema. */
export const sarifSchemaUri = 'https://json.schemastore.org/sarif-2.1.0.json';
/** The `partialFingerprints` key: bump its version if the fingerprint's inputs ever change. */
export const fingerprintKey = 'skillgardenFinding/v1';

export interface SarifOptions {
  toolVersion: string;
  /** Findings a baseline accepted: reported as suppressed, so code scanning shows them closed, not new. */
  baselined?: readonly Finding[];
  /** The baseline file's path, named in each suppression. */
  baselineFile?: string;
  /** A stable fingerprint per finding (the baseline's), so alerts keep their identity across line moves. */
  fingerprint: (finding: Finding) => string;
}

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[] };
}

type SarifLevel = 'error' | 'warning' | 'note';

const levelOf = (severity: Finding['severity']): SarifLevel => (severity === 'info' ? 'note' : severity);

/**
 * A SARIF 2.1.0 log of the findings, for GitHub code scanning (`upload-sarif`):
 * one rule per finding code, with the code's hint as help text; one result per
 * finding on its file and line (whole-file findings have no region).
 */
export function renderFindingsSarif(findings: readonly Finding[], options: SarifOptions): string {
  const baselined = options.baselined ?? [];
  const all = [...findings, ...baselined];
  const rules = buildRules(all);
  const index = new Map(rules.map((rule, i) => [rule.id, i]));
  const result = (f: Finding, suppressed: boolean) => ({
    ruleId: f.code,
    ruleIndex: index.get(f.code) ?? 0,
    level: levelOf(f.severity),
    message: { text: f.hint ? `${f.message}\n${f.hint}` : f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeUriPath(f.file), uriBaseId: '%SRCROOT%' },
          ...(f.line > 0 ? { region: { startLine: f.line, ...(f.column > 0 ? { startColumn: f.column } : {}) } } : {}),
        },
      },
    ],
    partialFingerprints: { [fingerprintKey]: options.fingerprint(f) },
    ...(suppressed
      ? {
          baselineState: 'unchanged',
          suppressions: [{ kind: 'external', justification: `accepted in the baseline ${options.baselineFile ?? ''}`.trim() }],
        }
      : {}),
  });
  const log = {
    $schema: sarifSchemaUri,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'skillgarden',
            version: options.toolVersion,
            informationUri: 'https://github.com/skillgarden/skillgarden',
            rules,
          },
        },
        columnKind: 'unicodeCodePoints',
        results: [...findings.map((f) => result(f, false)), ...baselined.map((f) => result(f, true))],
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function buildRules(findings: readonly Finding[]): SarifRule[] {
  const byCode = new Map<string, Finding>();
  for (const f of findings) if (!byCode.has(f.code)) byCode.set(f.code, f);
  return [...byCode.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([code, first]) => {
      const [area = code, rule = code] = code.split('/');
      const title = `${area}: ${rule.replace(/-/g, ' ')}`;
      const help = first.hint || `See the skillgarden documentation for ${code}.`;
      return {
        id: code,
        name: toPascal(code),
        shortDescription: { text: title },
        fullDescription: { text: `${title}. ${help}` },
        help: { text: help, markdown: `**${code}**\n\n${help}` },
        defaultConfiguration: { level: levelOf(first.severity) },
        properties: { tags: ['skillgarden', area] },
      };
    });
}

function toPascal(code: string): string {
  return code
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join('');
}

/** SARIF artifact URIs are URI references: keep the slashes, escape the rest. */
function encodeUriPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
