import { triggerQueriesFile } from '../../core/evals/types.js';
import { evalsFile, validateEvals } from '../../core/evals/validate-evals.js';
import { validateTriggerQueries } from '../../core/evals/validate-trigger-queries.js';
import type { Finding } from '../../core/findings.js';
import type { SkillFileEntry } from '../../core/rules/index.js';
import { decisiveFindings, describeFinding, evaluateWritePolicy, resolveScanConfig, type ScanConfig } from '../../core/scan/index.js';
import type { ProfileName } from '../../core/schema/types.js';
import { validateSkill } from '../../core/validate.js';
import { codeSpan } from '../../core/report/markdown-inert.js';
import type { BranchProposal } from './proposal.js';

export interface ProposalCheck {
  proposal: BranchProposal;
  /** Why it is not proposed: validate errors and scan findings that block a curator's write; empty when it passes. */
  problems: string[];
  /** Scan findings a person should look at in review (the policy asks rather than blocks). */
  cautions: string[];
}

export interface CheckOptions {
  profile: ProfileName;
  /** The library's `scan:` settings (default: the built-in policy). */
  scan?: ScanConfig;
  /**
   * A SKILL.md's text before the proposal (repository-relative path), when the library has it: an error the
   * file had already (a link escaping another skill the umbrella only renames a mention in) is not the
   * proposal's, and does not stop it. Without it every error counts.
   */
  base?: (path: string) => string | undefined;
}

function text(content: Uint8Array | string): string {
  return typeof content === 'string' ? content : Buffer.from(content).toString('utf8');
}

/** The skill folders a proposal writes a SKILL.md into, with the files it writes there. */
function changedSkills(proposal: BranchProposal): Map<string, { skillMd: string; files: Map<string, Uint8Array | string> }> {
  const folders = new Map<string, { skillMd: string; files: Map<string, Uint8Array | string> }>();
  for (const change of proposal.changes) {
    if (change.content === null || change.symlink === true || !change.path.endsWith('/SKILL.md')) continue;
    folders.set(change.path.slice(0, -'/SKILL.md'.length), { skillMd: text(change.content), files: new Map() });
  }
  for (const change of proposal.changes) {
    if (change.content === null || change.symlink === true) continue;
    for (const [dir, folder] of folders)
      if (change.path.startsWith(`${dir}/`)) folder.files.set(change.path.slice(dir.length + 1), change.content);
  }
  return folders;
}

/** The evaluation files a proposal writes into a skill folder, checked as `validate` checks them. */
function* checkEvals(dir: string, files: ReadonlyMap<string, Uint8Array | string>): Iterable<Finding> {
  const evals = files.get(evalsFile);
  const folder = dir.slice(dir.lastIndexOf('/') + 1);
  if (evals !== undefined)
    yield* validateEvals({ file: `${dir}/${evalsFile}`, text: text(evals), folder, skillFiles: new Set(files.keys()) });
  const queries = files.get(triggerQueriesFile);
  if (queries !== undefined) yield* validateTriggerQueries(`${dir}/${triggerQueriesFile}`, text(queries));
}

/**
 * The check every proposal passes before it is proposed, whoever wrote it (the curator's rules or a model):
 * the same validation as `validate`, and the scan with the policy of a curator's background write. A proposal
 * with an error or a blocking finding is not proposed: it is reported, so a person never reviews (or merges)
 * a dangerous skill the tool made.
 */
export function checkProposal(proposal: BranchProposal, options: CheckOptions): ProposalCheck {
  const problems: string[] = [];
  const cautions: string[] = [];
  for (const [dir, folder] of changedSkills(proposal)) {
    const file = `${dir}/SKILL.md`;
    // A new skill's whole folder is in the change set, so its links can be checked; an umbrella keeps files it does not rewrite.
    const whole = proposal.kind === 'new';
    const entries = new Map<string, SkillFileEntry>([...folder.files.keys()].map((path) => [path, { path, size: 0 }]));
    const { findings } = validateSkill({
      file,
      content: folder.skillMd,
      folder: dir.slice(dir.lastIndexOf('/') + 1),
      profile: options.profile,
      ...(whole ? { files: entries } : {}),
    });
    const evals = [...checkEvals(dir, folder.files)];
    const known = knownErrors(file, dir, options);
    for (const f of [...findings, ...evals].filter((x: Finding) => x.severity === 'error' && !known.has(`${x.code}: ${x.message}`)))
      problems.push(`${f.file === file ? file : f.file}:${f.line} ${f.code}: ${f.message}`);
    const input = {
      skill: dir,
      files: [...folder.files].map(([path, content]) => ({ path, bytes: typeof content === 'string' ? Buffer.from(content) : content })),
      provenance: 'agent' as const,
      source: 'background' as const,
      config: options.scan ?? resolveScanConfig(),
    };
    const result = evaluateWritePolicy(input);
    if (result.decision === 'allow') continue;
    const described = decisiveFindings(result, input).map((f) => describeFinding({ ...f, file: `${dir}/${f.file}` }));
    (result.decision === 'block' ? problems : cautions).push(...described);
  }
  return { proposal, problems, cautions };
}

/** The errors validate finds in a SKILL.md as it was before the proposal (none when there was none). */
function knownErrors(file: string, dir: string, options: CheckOptions): Set<string> {
  const before = options.base?.(file);
  if (before === undefined) return new Set();
  const { findings } = validateSkill({ file, content: before, folder: dir.slice(dir.lastIndexOf('/') + 1), profile: options.profile });
  return new Set(findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`));
}

export interface GateResult {
  /** The proposals that passed, scan cautions added to their reasons for the reviewer. */
  kept: BranchProposal[];
  /** The ones that did not, with why: never written, never proposed. */
  refused: ProposalCheck[];
}

/** `checkProposal` over a run's proposals: the one gate every writer of proposals (curate, plan --apply) passes them through. */
export function gateProposals(proposals: readonly BranchProposal[], options: CheckOptions): GateResult {
  const kept: BranchProposal[] = [];
  const refused: ProposalCheck[] = [];
  for (const proposal of proposals) {
    const check = checkProposal(proposal, options);
    if (check.problems.length > 0) refused.push(check);
    else
      kept.push(
        check.cautions.length === 0
          ? proposal
          : {
              ...proposal,
              reasons: [...proposal.reasons, ...check.cautions.map((c) => `the scan asks a reviewer to look at: ${codeSpan(c)}`)],
            },
      );
  }
  return { kept, refused };
}

/** Why a proposal was refused, in one message: its kind, its name, its first problems. */
export function describeRefusal(check: ProposalCheck): string {
  const { proposal, problems } = check;
  const more = problems.length > 10 ? `\n  … and ${problems.length - 10} more` : '';
  return `the ${proposal.kind} proposal ${proposal.name} was not proposed: it fails the check every proposal passes (validate and the scan):\n  ${problems.slice(0, 10).join('\n  ')}${more}`;
}
