import type { Finding } from '../core/findings.js';
import type { ReportFinding, ScanReport } from '../core/scan/report.js';
import { readConfig } from '../services/curator/read-library.js';
import { runScan } from '../services/scan.js';
import { openLibrary, renderEmptyLibrary, type DiscoveredLibrary } from '../store/layout/discover-library.js';
import { runValidate } from '../services/validate.js';
import { readEvent } from './event.js';
import { Git } from './git.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, Annotation, ModeResult } from './io.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { readChangedFiles } from './repo-ops.js';
import { toFindings } from '../core/scan/index.js';
import { writeSarifReport } from './sarif-output.js';

/** A row of the summary table and, for the first few of each level, an annotation. */
interface Problem {
  level: Annotation['level'];
  code: string;
  file: string;
  line: number;
  column: number;
  message: string;
  hint: string;
}

const levelOf: Record<Finding['severity'], Annotation['level']> = { error: 'error', warning: 'warning', info: 'notice' };
const scanLevel: Record<ReportFinding['severity'], Annotation['level']> = { high: 'error', medium: 'warning', low: 'notice' };
/** GitHub shows 10 of each level per step; a few more cost nothing and survive its ordering. */
const annotationsPerLevel = 50;
const summaryRows = 2000;

/** `mode: validate`: every skill, or the ones a pull request changes; annotations, a summary table, counts. */
export async function runValidateMode(inputs: ActionInputs, io: ActionIo): Promise<ModeResult> {
  const { config, findings: configFindings } = readConfig(inputs.workspace);
  const skillsDir = inputs.skillsDir || config.skills_dir;
  // The library's one discovery, as every command uses; an empty library fails the step rather than pass with nothing checked.
  const library = openLibrary(inputs.workspace, skillsDir);
  if (library.skills.length === 0 && library.escaped.length === 0) return { failure: renderEmptyLibrary(library) };
  const paths = await selectPaths(inputs, io, library);
  const validation =
    paths && paths.length === 0
      ? null
      : runValidate({
          cwd: inputs.workspace,
          profile: inputs.profile ?? config.profile,
          links: config.links,
          ...(paths ? { paths } : { library }),
        });
  const scan =
    inputs.scan && validation
      ? await runScan(paths ?? [], { repo: inputs.workspace, config: config.scan, ...(paths ? {} : { library }) })
      : null;
  const problems = [...configFindings.map(fromFinding), ...(validation?.findings ?? []).map(fromFinding), ...(scan ? fromScan(scan) : [])];
  emitAnnotations(io, problems, inputs.workingDirectory);
  const errors = problems.filter((p) => p.level === 'error').length;
  const warnings = problems.filter((p) => p.level === 'warning').length;
  const skills = validation?.skills ?? 0;
  io.setOutput('errors', String(errors));
  io.setOutput('warnings', String(warnings));
  io.setOutput('skills', String(skills));
  const sarifFindings = [...configFindings, ...(validation?.findings ?? []), ...(scan ? toFindings(scan.findings) : [])];
  io.setOutput('sarif', writeSarifReport(inputs.sarifFile, inputs.workspace, sarifFindings));
  await io.appendSummary(
    renderSummary({
      skills,
      errors,
      warnings,
      problems,
      scope: paths
        ? `${paths.length} changed skill(s)`
        : `every skill under ${library.layout.roots.map((r) => `\`${r.path || '.'}/\``).join(', ') || 'the listed paths'}`,
      scanned: scan !== null,
    }),
  );
  io.info(`Validated ${skills} skill(s): ${errors} error(s), ${warnings} warning(s).`);
  return errors > 0 ? { failure: `${errors} error(s) in ${skills} skill(s): see the annotations and the job summary.` } : {};
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

function fromScan(scan: ScanReport): Problem[] {
  return scan.findings
    .filter((f) => !f.suppressed)
    .map((f) => ({
      level: scanLevel[f.severity],
      code: `scan/${f.rule}`,
      file: f.file,
      line: f.line,
      column: f.column,
      message: `${f.message} (${f.category}: "${f.match}")`,
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
  scope: string;
  scanned: boolean;
}): string {
  const verdict = input.errors > 0 ? '❌' : '✅';
  const lines = [
    `## ${verdict} skillgarden validate`,
    '',
    `Checked ${input.scope}: ${input.skills} skill(s), **${input.errors}** error(s), **${input.warnings}** warning(s)${input.scanned ? ', security scan included' : ''}.`,
    '',
  ];
  if (input.problems.length === 0) return `${lines.join('\n')}\n`;
  lines.push('| level | file | line | code | message |', '|---|---|---:|---|---|');
  for (const p of input.problems.slice(0, summaryRows)) {
    lines.push(
      `| ${p.level} | ${codeSpan(p.file)} | ${p.line || ''} | ${codeSpan(p.code)} | ${escapeMarkdown(p.message)}${p.hint ? ` — ${escapeMarkdown(p.hint)}` : ''} |`,
    );
  }
  if (input.problems.length > summaryRows)
    lines.push('', `… and ${input.problems.length - summaryRows} more: run \`npx skillgarden validate\` locally for the complete list.`);
  return `${lines.join('\n')}\n`;
}
