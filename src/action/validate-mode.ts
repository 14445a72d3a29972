import type { Finding } from '../core/findings.js';
import type { ReportFinding, ScanReport } from '../core/scan/report.js';
import { readConfig } from '../services/curator/read-library.js';
import { openLibrary, renderEmptyLibrary, type DiscoveredLibrary } from '../services/library.js';
import { runValidateAndScan } from '../services/validate-and-scan.js';
import { readEvent } from './event.js';
import { Git } from './git.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, Annotation, ModeResult } from './io.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { readChangedFiles } from './repo-ops.js';
import { toFindings } from '../core/scan/report.js';
import { writeSarifReport } from './sarif-output.js';
import type { Problem } from './problem.js';
import { readBaseProblems, splitByBase, type CheckedTree } from './validate-base.js';
import { readBasePolicy, splitInlineSuppressions } from './base-policy.js';
import { configFile } from '../core/config/config-path.js';
import type { Config } from '../core/config/config.js';

const levelOf: Record<Finding['severity'], Annotation['level']> = { error: 'error', warning: 'warning', info: 'notice' };
const scanLevel: Record<ReportFinding['severity'], Annotation['level']> = { high: 'error', medium: 'warning', low: 'notice' };
/** GitHub shows 10 of each level per step; a few more cost nothing and survive its ordering. */
const annotationsPerLevel = 50;
const summaryRows = 2000;

/** `mode: validate`: every skill, or the ones a pull request changes; annotations, a summary table, counts. */
export async function runValidateMode(inputs: ActionInputs, io: ActionIo): Promise<ModeResult> {
  // On a pull request its base decides the check's settings: a pull request cannot allow its own findings.
  const policy = await readBasePolicy(inputs);
  const config = policy?.config ?? readConfig(inputs.workspace).config;
  if (policy?.configChanged)
    io.info(`This pull request changes ${configFile}: it is checked with the settings of its base; its own apply once merged.`);
  if (policy && !policy.read) io.info('Could not read the base commit: the built-in settings decide this check (nothing allowed).');
  const skillsDir = inputs.skillsDir || config.skills_dir;
  // The library's one discovery, as every command uses; an empty library fails the step rather than pass with nothing checked.
  const library = openLibrary(inputs.workspace, skillsDir);
  if (library.skills.length === 0 && library.escaped.length === 0) return { failure: renderEmptyLibrary(library) };
  const paths = await selectPaths(inputs, io, library);
  const checked = await collectProblems(inputs, inputs.workspace, paths, library, policy?.config);
  // A skillgarden-ignore marker the pull request adds does not suppress a high-severity finding: a reviewer decides.
  const { trusted, added } = policy
    ? await splitInlineSuppressions(inputs, policy, checked.suppressed)
    : { trusted: checked.suppressed, added: [] };
  const requested = added.filter((f) => f.severity === 'high');
  const unsuppressed = fromScan(requested, 'requested');
  const suppressed = [
    ...fromScan(trusted, 'suppressed'),
    ...fromScan(
      added.filter((f) => f.severity !== 'high'),
      'pull-request',
    ),
  ];
  // On a pull request, what its base already held is not the pull request's: listed apart, neither annotated nor failing.
  const base = await readBaseProblems(inputs, io, paths, collectProblems);
  const all = [...checked.problems, ...unsuppressed];
  const { fresh: problems, known } = base ? splitByBase(all, base.problems) : { fresh: all, known: [] };
  emitAnnotations(io, problems, inputs.workingDirectory);
  const errors = problems.filter((p) => p.level === 'error').length;
  const warnings = problems.filter((p) => p.level === 'warning').length;
  const skills = checked.skills;
  io.setOutput('errors', String(errors));
  io.setOutput('warnings', String(warnings));
  io.setOutput('skills', String(skills));
  io.setOutput('sarif', writeSarifReport(inputs.sarifFile, inputs.workspace, checked.findings));
  await io.appendSummary(
    renderSummary({
      skills,
      errors,
      warnings,
      problems,
      known,
      ...(base ? { baseRef: base.ref } : {}),
      scope: paths
        ? `${paths.length} changed skill(s)`
        : `every skill under ${library.layout.roots.map((r) => `\`${r.path || '.'}/\``).join(', ') || 'the listed paths'}`,
      scanned: inputs.scan && checked.skills > 0,
      suppressed,
      requested: unsuppressed,
      ...(policy?.configChanged ? { configChanged: true } : {}),
    }),
  );
  io.info(
    `Validated ${skills} skill(s): ${errors} error(s), ${warnings} warning(s)${base ? ` introduced over ${base.ref} (${known.length} finding(s) already there)` : ''}.`,
  );
  return errors > 0 ? { failure: `${errors} error(s) in ${skills} skill(s): see the annotations and the job summary.` } : {};
}

/** Validation, the config's own findings and the security scan of the tree in `dir`, as rows and as findings (for SARIF). */
async function collectProblems(
  inputs: ActionInputs,
  dir: string,
  paths: string[] | undefined,
  library?: DiscoveredLibrary,
  policy?: Config,
): Promise<CheckedTree> {
  const own = readConfig(dir);
  const config = policy ?? own.config;
  const configFindings = own.findings;
  // The one validate path the CLI takes (the Action keeps no cache: each job starts from a fresh checkout).
  const checked =
    paths && paths.length === 0
      ? null
      : await runValidateAndScan({
          cwd: dir,
          profile: inputs.profile ?? config.profile,
          ...(config.links ? { links: config.links } : {}),
          ...(paths ? { paths } : library ? { library } : { skillsDir: inputs.skillsDir || config.skills_dir }),
          scan: inputs.scan ? config.scan : false,
        });
  const validation = checked?.report;
  const scan = checked?.scan;
  return {
    skills: validation?.skills ?? 0,
    problems: [...configFindings.map(fromFinding), ...(validation?.findings ?? []).map(fromFinding), ...(scan ? fromScan(scan) : [])],
    findings: [...configFindings, ...(validation?.findings ?? []), ...(scan ? toFindings(scan.findings) : [])],
    suppressed: scan ? scan.findings.filter((f) => f.suppressed !== undefined) : [],
  };
}

/** Undefined: the whole library. An array: the changed skill folders (maybe none). */
async function selectPaths(inputs: ActionInputs, io: ActionIo, library: DiscoveredLibrary): Promise<string[] | undefined> {
  if (!inputs.changedOnly) return undefined;
  const event = readEvent(inputs.github.eventPath);
  if (!event.pullRequest) {
    io.info('changed-only: not a pull request event, so every skill is validated.');
    return undefined;
  }
  const changed = await readChangedFiles(new Git(inputs.workspace), event.pullRequest.baseSha);
  const dirs = library.skills.filter((s) => changed.some((file) => file.startsWith(`${s.path}/`))).map((s) => s.path);
  io.info(`changed-only: ${changed.length} changed file(s), ${dirs.length} skill(s) to validate.`);
  return dirs;
}

function fromFinding(f: Finding): Problem {
  return { level: levelOf[f.severity], code: f.code, file: f.file, line: f.line, column: f.column, message: f.message, hint: f.hint };
}

/**
 * How a row tells its suppression: `open` rows are the findings no suppression covers; `suppressed` ones name who
 * allowed them (the base's `scan.allow` or a marker) and why; `pull-request` ones were suppressed by a marker the pull
 * request adds (below high severity, it may); `requested` ones are high-severity findings such a marker asked to suppress.
 */
type ScanRows = 'open' | 'suppressed' | 'pull-request' | 'requested';

const whoAllowed: Record<'inline' | 'config', string> = { inline: 'a skillgarden-ignore marker', config: 'scan.allow in the config' };

function suppressionNote(f: ReportFinding, rows: ScanRows): string {
  if (!f.suppressed || rows === 'open') return '';
  const who = whoAllowed[f.suppressed.by];
  if (rows === 'requested')
    return ` — suppression requested by ${who} this pull request adds (${f.suppressed.reason}): a high-severity finding stays an error until a reviewer merges the marker`;
  return ` — suppressed by ${who}${rows === 'pull-request' ? ' this pull request adds' : ''}: ${f.suppressed.reason}`;
}

/** Scan findings as rows: the ones no suppression covers (`open`), or exactly the ones given. */
function fromScan(findings: ScanReport | readonly ReportFinding[], rows: ScanRows = 'open'): Problem[] {
  const list = 'findings' in findings ? findings.findings : findings;
  return list
    .filter((f) => rows !== 'open' || !f.suppressed)
    .map((f) => ({
      level: scanLevel[f.severity],
      code: `scan/${f.rule}`,
      file: f.file,
      line: f.line,
      column: f.column,
      message: `${f.message} (${f.category}: "${f.match}")${suppressionNote(f, rows)}`,
      hint: f.hint,
    }));
}

function emitAnnotations(io: ActionIo, problems: readonly Problem[], workingDirectory: string): void {
  const emitted: Record<Annotation['level'], number> = { error: 0, warning: 0, notice: 0 };
  for (const p of problems) {
    if (emitted[p.level]++ >= annotationsPerLevel) continue;
    io.annotate({
      level: p.level,
      title: p.code,
      message: p.hint ? `${p.message}\n${p.hint}` : p.message,
      file: workingDirectory ? `${workingDirectory}/${p.file}` : p.file,
      ...(p.line > 0 ? { line: p.line } : {}),
      ...(p.column > 0 ? { column: p.column } : {}),
    });
  }
}

function renderSummary(input: {
  skills: number;
  errors: number;
  warnings: number;
  problems: Problem[];
  known: Problem[];
  baseRef?: string;
  scope: string;
  scanned: boolean;
  suppressed: Problem[];
  /** High-severity findings the pull request's own markers ask to suppress: still errors, listed for a reviewer. */
  requested: Problem[];
  configChanged?: boolean;
}): string {
  const verdict = input.errors > 0 ? '❌' : '✅';
  const lines = [
    `## ${verdict} skillgarden validate`,
    '',
    `Checked ${input.scope}: ${input.skills} skill(s), **${input.errors}** error(s), **${input.warnings}** warning(s)${input.baseRef ? ` introduced by this pull request over ${codeSpan(input.baseRef)}` : ''}${input.scanned ? ', security scan included' : ''}.`,
    '',
  ];
  lines.push(...renderTable(input.problems));
  if (input.configChanged)
    lines.push(
      '',
      `This pull request changes ${codeSpan(configFile)}: it was checked with its base's settings; its own apply once merged.`,
    );
  if (input.requested.length > 0)
    lines.push(
      '',
      `### Suppression requested: ${input.requested.length} high-severity finding(s)`,
      '',
      `This pull request adds ${codeSpan('skillgarden-ignore')} markers for these findings. A marker added by the pull request does not suppress a high-severity finding in its own check: a reviewer decides, and the marker applies once merged.`,
      '',
      ...renderTable(input.requested),
    );
  if (input.suppressed.length > 0)
    lines.push(
      '',
      `<details><summary>${input.suppressed.length} finding(s) suppressed (by ${codeSpan('scan.allow')} on the base, or a ${codeSpan('skillgarden-ignore')} marker: the base's, or this pull request's for findings below high severity), with who allowed each and why</summary>`,
      '',
      ...renderTable(input.suppressed),
      '',
      '</details>',
    );
  if (input.baseRef && input.known.length > 0)
    lines.push(
      '',
      `<details><summary>${input.known.length} finding(s) already on ${escapeMarkdown(input.baseRef)}: not this pull request's, not annotated, not failing</summary>`,
      '',
      ...renderTable(input.known),
      '',
      '</details>',
    );
  return `${lines.join('\n')}\n`;
}

function renderTable(problems: readonly Problem[]): string[] {
  if (problems.length === 0) return [];
  const lines = ['| level | file | line | code | message |', '|---|---|---:|---|---|'];
  for (const p of problems.slice(0, summaryRows)) {
    lines.push(
      `| ${p.level} | ${codeSpan(p.file)} | ${p.line || ''} | ${codeSpan(p.code)} | ${escapeMarkdown(p.message)}${p.hint ? ` — ${escapeMarkdown(p.hint)}` : ''} |`,
    );
  }
  if (problems.length > summaryRows)
    lines.push('', `… and ${problems.length - summaryRows} more: run \`npx skillgarden validate\` locally for the complete list.`);
  return lines;
}
