import { readPrimaryRoot } from '../../store/layout/discover-library.js';
import {
  adviseOverlaps,
  buildGuardInput,
  buildPlanReport,
  planConsolidation,
  type ConsolidationConfig,
  type ConsolidationResult,
  type PlanLlmNote,
  type PlanReport,
} from '../../core/consolidate/index.js';
import type { Finding } from '../../core/findings.js';
import { requireConfig } from '../curator/read-library.js';
import type { ChatClientOptions } from '../../llm/chat-client.js';
import { writeUmbrellaProse } from '../../llm/umbrella-prose.js';
import { readLibrary, type ReadLibraryOptions } from './read-library.js';

export interface PlanLibraryOptions extends ReadLibraryOptions {
  now: Date;
  config?: Partial<ConsolidationConfig>;
  /** Opt-in: let this model write each umbrella's prose (checked, never trusted). */
  llm?: ChatClientOptions;
  /** Also list overlaps among people's (and other untouchable) skills, explained, never applied. */
  advise?: boolean;
}

export interface PlanLibraryResult {
  result: ConsolidationResult;
  report: PlanReport;
  /** Problems with the files the plan read (a broken `hub.json`), as findings. */
  findings: Finding[];
}

interface ConfigFile {
  consolidation?: Partial<ConsolidationConfig>;
  references?: string[];
  protected?: string[];
  skills_dir?: string | string[];
}

/** The settings this service uses from `.skillgarden/config.yaml`, which must be valid (a bad value is an error naming the key). */
function readConfigFile(repoDir: string): ConfigFile {
  return requireConfig(repoDir);
}

const stringList = (value: unknown): string[] | undefined =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;

/** Consolidation plans for the repository's working tree, applied to nothing. */
export async function planLibrary(repoDir: string, options: PlanLibraryOptions): Promise<PlanLibraryResult> {
  const file = readConfigFile(repoDir);
  const skillsDir = options.skillsDir ?? readPrimaryRoot(repoDir, file.skills_dir);
  const referenceGlobs = options.referenceGlobs ?? stringList(file.references) ?? [];
  const protectedNames = options.protectedNames ?? stringList(file.protected) ?? [];
  const library = await readLibrary(repoDir, { ...options, skillsDir, referenceGlobs, protectedNames });
  const result = planConsolidation({
    skills: library.skills,
    references: library.references,
    archiveDirs: library.archiveDirs,
    skillsDir,
    now: options.now,
    config: { ...(file.consolidation && typeof file.consolidation === 'object' ? file.consolidation : {}), ...options.config },
  });
  const advice = options.advise
    ? adviseOverlaps(library.skills, file.consolidation && typeof file.consolidation === 'object' ? file.consolidation : {}).map(
        ({ names, kind, reason }) => ({ names, kind, reason }),
      )
    : undefined;
  const withAdvice = (report: PlanReport): PlanReport => (advice ? { ...report, advice } : report);
  const findings = library.findings;
  if (!options.llm) return { result, report: withAdvice(buildPlanReport(result)), findings };
  const notes = new Map<string, PlanLlmNote>();
  const plans = [];
  for (const plan of result.plans) {
    const prosed = await writeUmbrellaProse(plan, buildGuardInput(plan, library), options.llm);
    notes.set(plan.into, prosed.llm);
    plans.push(prosed.plan);
  }
  const withProse = { ...result, plans };
  return { result: withProse, report: withAdvice(buildPlanReport(withProse, { llm: notes })), findings };
}
