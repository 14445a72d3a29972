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
import type { ChatClientOptions } from '../../llm/chat-client.js';
import { writeUmbrellaProse } from '../../llm/umbrella-prose.js';
import { readLibrary, type LibrarySnapshot } from '../curator/read-library.js';
import { readPackages, type Library } from './read-packages.js';
import type { SkippedItem } from '../../core/consolidate/types.js';

export interface PlanLibraryOptions {
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
  /** Each skill's SKILL.md as the plan read it (repository-relative path): the proposal gate's `base`. */
  base: (path: string) => string | undefined;
}

/** Consolidation plans for the repository's working tree, applied to nothing. */
export async function planLibrary(repoDir: string, options: PlanLibraryOptions): Promise<PlanLibraryResult> {
  return planSnapshot(await readLibrary(repoDir, { now: options.now }), options);
}

/** Consolidation plans over a run's one snapshot (the curator's, the `plan` command's). */
export async function planSnapshot(snapshot: LibrarySnapshot, options: PlanLibraryOptions): Promise<PlanLibraryResult> {
  const library = readPackages(snapshot);
  const settings = snapshot.config.consolidation as Partial<ConsolidationConfig>;
  const result = planEachRoot(library, { ...settings, ...options.config }, options.now);
  const findings = library.findings;
  const texts = new Map(library.skills.map((s) => [`${s.dir}/SKILL.md`, s.text]));
  const base = (path: string) => texts.get(path);
  const advice = options.advise
    ? adviseOverlaps(library.skills, settings).map(({ names, kind, reason }) => ({ names, kind, reason }))
    : undefined;
  const withAdvice = (report: PlanReport): PlanReport => (advice ? { ...report, advice } : report);
  if (!options.llm) return { result, report: withAdvice(buildPlanReport(result)), findings, base };
  const notes = new Map<string, PlanLlmNote>();
  const plans = [];
  for (const plan of result.plans) {
    const prosed = await writeUmbrellaProse(plan, buildGuardInput(plan, library), options.llm);
    notes.set(plan.into, prosed.llm);
    plans.push(prosed.plan);
  }
  const withProse = { ...result, plans };
  return { result: withProse, report: withAdvice(buildPlanReport(withProse, { llm: notes })), findings, base };
}

/**
 * One planning pass per skill root: an umbrella and its members' archives stay
 * in the root (the plugin) the members came from, never moved into another.
 * The other roots' skills are passed along as protected, so their names stay
 * taken and nothing of theirs is planned twice.
 */
function planEachRoot(library: Library, config: Partial<ConsolidationConfig>, now: Date): ConsolidationResult {
  const rootOf = (name: string) => library.rootOf.get(name) ?? '';
  const used = new Set(library.skills.map((s) => rootOf(s.name)));
  const results = library.roots
    .filter((root) => used.has(root))
    .map((root) =>
      planConsolidation({
        skills: library.skills.map((s) => (rootOf(s.name) === root ? s : { ...s, protected: true })),
        references: library.references,
        archiveDirs: library.archiveDirs,
        skillsDir: root,
        now,
        config,
      }),
    );
  const skipped = new Map<string, SkippedItem>();
  for (const item of results.flatMap((r) => r.skipped)) skipped.set(`${item.names.join()}\n${item.reason}`, item);
  return {
    clusters: results.flatMap((r) => r.clusters),
    plans: results.flatMap((r) => r.plans),
    dropped: results.flatMap((r) => r.dropped),
    skipped: [...skipped.values()],
  };
}
