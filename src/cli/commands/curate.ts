import { openLibrary, readPrimaryRoot, requireSkills } from '../../store/layout/discover-library.js';
import { requireConfig } from '../../services/config-file.js';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderPatternsMarkdown, type DetectedPattern } from '../../core/patterns/index.js';
import { renderRunMarkdown } from '../../core/report/render-run.js';
import { renderPlansMarkdown } from '../../core/consolidate/index.js';
import type { RunReport } from '../../core/report/run-report.js';
import { readGitDir } from '../../ledger/git-dir.js';
import { defaultReportDir, runCurator } from '../../services/curator/run-curator.js';
import {
  buildDraftBranchProposal,
  buildProposalFingerprint,
  buildUmbrellaBranchProposal,
  listProposals,
  listUmbrellaDecisions,
  writeProposals,
  type ProposalKind,
} from '../../services/proposals/index.js';
import { exitCodes, type Command } from '../context.js';
import { renderWritten } from './proposals.js';
import { createProgress } from '../progress.js';
import { llmUsage, readLlmOption } from '../llm-option.js';

export const curateCommand: Command = {
  name: 'curate',
  summary:
    'one curator run: lifecycle transitions as commits (or, with --propose, as the branch skillgarden/lifecycle), run.json and REPORT.md',
  usage: `curate [--dry-run] [--propose] [--scheduled] [--transcripts GLOB…] [--consolidate] [--llm] [--report-dir DIR] [--allow-empty]   (--propose: the current branch and worktree untouched, every change a proposal branch; ${llmUsage})`,
  options: {
    'dry-run': { type: 'boolean' },
    propose: { type: 'boolean' },
    llm: { type: 'boolean' },
    scheduled: { type: 'boolean' },
    'report-dir': { type: 'string' },
    transcripts: { type: 'string', multiple: true },
    consolidate: { type: 'boolean' },
    'allow-empty': { type: 'boolean' },
  },
  async run({ io, global, values }) {
    // Nothing silently empty: a scheduled run over a library it cannot find fails, saying where it looked.
    // A library whose every skill is archived is found, not empty: its run reports the archive.
    const library = openLibrary(global.repo, requireConfig(global.repo).skills_dir);
    requireSkills(library, { allowEmpty: values['allow-empty'] === true || library.archived.length > 0 });
    const llm = readLlmOption(values.llm, io.env);
    const progress = createProgress(io, 'curating', !global.json);
    const propose = values.propose === true;
    const dryRun = values['dry-run'] === true;
    // An umbrella a person declined holds nothing back from the lifecycle: it is no longer proposed.
    const declined = new Set(
      (await listProposals(global.repo, { now: global.now, save: !dryRun })).flatMap((s) =>
        s.state === 'declined' && s.fingerprint ? [s.fingerprint] : [],
      ),
    );
    const { report, plans, umbrellas, snapshot, lifecycle } = await runCurator({
      repoDir: global.repo,
      now: global.now,
      dryRun,
      scheduled: values.scheduled === true,
      propose,
      ...(llm ? { llm } : {}),
      isDeclinedUmbrella: (plan) => declined.has(buildProposalFingerprint('umbrella', listUmbrellaDecisions(plan))),
      ...(values.transcripts ? { transcripts: values.transcripts as string[] } : {}),
      ...(values.consolidate === true ? { consolidate: true } : {}),
      onProgress: progress.update,
    });
    progress.done();
    // Umbrellas, drafted skills and (--propose) the lifecycle are proposals: each a branch of its own, the current branch and worktree untouched.
    const mined = ((values.transcripts as string[] | undefined) ?? snapshot.config.transcripts).length > 0;
    const withdraw: ProposalKind[] = [
      ...(propose ? ['lifecycle' as const] : []),
      ...(umbrellas ? ['umbrella' as const] : []),
      ...(mined ? ['new' as const] : []),
    ];
    const written =
      dryRun || report.gates.blocked_by !== null
        ? []
        : await writeProposals(
            global.repo,
            [
              ...(lifecycle ? [lifecycle] : []),
              ...(umbrellas ?? []).map((plan) => buildUmbrellaBranchProposal(plan, report.run_id)),
              ...(report.patterns as DetectedPattern[]).flatMap(
                (p) => buildDraftBranchProposal(p, readPrimaryRoot(global.repo, snapshot.config.skills_dir), report.run_id) ?? [],
              ),
            ],
            { now: global.now, withdraw },
          );
    const dir =
      typeof values['report-dir'] === 'string'
        ? resolve(io.cwd, values['report-dir'])
        : defaultReportDir(await readGitDir(global.repo), report.run_id);
    const patterns = report.patterns as DetectedPattern[];
    const sections = [...(patterns.length > 0 ? [renderPatternsMarkdown(patterns)] : []), ...(plans ? [renderPlansMarkdown(plans)] : [])];
    const markdown = renderRunMarkdown(report, sections);
    writeReport(dir, report, markdown);
    writeDrafts(dir, patterns);
    if (global.json) io.stdout.write(`${JSON.stringify(written.length > 0 ? { ...report, proposals: written } : report, null, 2)}\n`);
    else
      io.stdout.write(
        `${markdown}\n${written.length > 0 ? `Proposals:\n${renderWritten(written)}` : ''}Report: ${join(dir, 'REPORT.md')} and run.json\n`,
      );
    return report.status === 'failed' ? exitCodes.findings : exitCodes.ok;
  },
};

/** Drafted skills are proposals: written beside the report (`drafts/<name>/SKILL.md`), never into the library. */
function writeDrafts(dir: string, patterns: readonly DetectedPattern[]): void {
  for (const pattern of patterns) {
    if (!pattern.draft) continue;
    const folder = join(dir, 'drafts', pattern.draft.name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), pattern.draft.text);
  }
}

/** run.json and REPORT.md, each written atomically. */
export function writeReport(dir: string, report: RunReport, markdown: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of [
    ['run.json', `${JSON.stringify(report, null, 2)}\n`],
    ['REPORT.md', markdown],
  ] as const) {
    const temp = join(dir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temp, content);
    renameSync(temp, join(dir, name));
  }
}
