import { skillFileName } from '../layout.js';
import { buildClusters, describeCluster } from './cluster.js';
import { describeEvidence } from './render.js';
import { checkClusterSupport } from './support.js';
import { resolveConsolidationConfig, type ConsolidationConfig } from './config.js';
import { isCuratable, selectCuratable } from './eligible.js';
import { buildAllFeatures, type SkillFeatures } from './features.js';
import { checkPlan } from './guard.js';
import { contentText, isMarkdownPath, mapMovedLink, type MovedTarget } from './package.js';
import { planCluster } from './plan-cluster.js';
import { listWantedWords, rewriteText } from './rewrite.js';
import { PortableValidations } from './validity.js';
import type { ConsolidationPlan, ConsolidationResult, CuratedSkill, DroppedPlan, ReferenceFile } from './types.js';

export interface ConsolidationInput {
  /** Every skill of the library: the planner picks the curatable ones itself. */
  skills: readonly CuratedSkill[];
  /** Files matched by the `references` globs (scheduled jobs…), whose mentions of merged names are rewritten. */
  references?: readonly ReferenceFile[];
  config?: Partial<ConsolidationConfig>;
  /** Default `skills`. */
  skillsDir?: string;
  /** Existing archive folders (repository paths): archives get a time suffix rather than overwrite one. */
  archiveDirs?: readonly string[];
  now: Date;
}

export type { ConsolidationResult, DroppedPlan } from './types.js';

/** Clusters the curatable skills and plans one umbrella per cluster; every plan is checked by the guard. */
export function planConsolidation(input: ConsolidationInput): ConsolidationResult {
  const config = resolveConsolidationConfig(input.config);
  const { eligible, skipped, parsed } = selectCuratable(input.skills, input.skillsDir ?? 'skills');
  const features = buildAllFeatures(eligible, config, parsed);
  const byName = new Map<string, SkillFeatures>(features.map((f) => [f.name, f]));
  const clusters = buildClusters(features, config);
  const ctx = {
    config,
    skillsDir: input.skillsDir ?? 'skills',
    now: input.now,
    taken: new Set(input.skills.map((s) => s.name)),
    occupied: new Set(input.archiveDirs ?? []),
    validations: new PortableValidations(),
  };
  const drafts: Array<{ plan: ConsolidationPlan; moves: ReadonlyMap<string, MovedTarget> }> = [];
  for (const cluster of clusters) {
    if (cluster.members.length > config.max_cluster_size) {
      skipped.push({
        names: cluster.members,
        reason: `a cluster of ${cluster.members.length} skills is more than max_cluster_size (${config.max_cluster_size}): review it by hand or raise the limit`,
      });
      continue;
    }
    const support = checkClusterSupport(
      cluster.members.map((n) => byName.get(n) as SkillFeatures),
      cluster.evidence.prefix,
      ctx.taken,
      config,
    );
    for (const item of support.left) skipped.push({ names: [item.name], reason: item.reason });
    if (support.kept.length < 2) {
      skipped.push({
        names: cluster.members,
        reason: `similar names, different content (${describeEvidence(cluster.evidence)}): no plan; too little of it is shared to merge`,
      });
      continue;
    }
    const kept = support.kept.length === cluster.members.length ? cluster : describeCluster(support.kept, config);
    const result = planCluster(
      kept,
      kept.members.map((n) => byName.get(n) as SkillFeatures),
      ctx,
    );
    if ('skipped' in result) skipped.push({ names: cluster.members, reason: result.skipped });
    else drafts.push(result);
  }
  const outside = buildOutsideFiles(input.skills, input.references ?? []);
  const untouchable = input.skills.filter((s) => !isCuratable(s)).map((s) => `${s.dir}/`);
  const mentions = indexMentions(
    outside,
    drafts.flatMap((d) => d.plan.from),
  );
  const plans: ConsolidationPlan[] = [];
  const dropped: DroppedPlan[] = [];
  for (const draft of drafts) {
    const plan = addReferenceRewrites(draft.plan, draft.moves, { outside, mentions, byName, untouchable });
    const before = [plan.into, ...plan.from].map((n) => byName.get(n)?.skill).filter((s): s is CuratedSkill => s !== undefined);
    const problems = checkPlan({
      plan,
      before,
      outside: new Map(plan.rewritten.map((p) => [p, outside.get(p) as string])),
      validations: ctx.validations,
    });
    if (problems.length === 0) plans.push(plan);
    else dropped.push({ plan, problems });
  }
  return { clusters, plans, dropped, skipped };
}

/** Every text file a merge may have to rewrite: each skill's SKILL.md and Markdown files, and the reference files. */
function buildOutsideFiles(skills: readonly CuratedSkill[], references: readonly ReferenceFile[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const skill of skills) {
    files.set(`${skill.dir}/${skillFileName}`, skill.text);
    for (const file of skill.files) {
      const text = isMarkdownPath(file.path) ? contentText(file.content) : undefined;
      if (text !== undefined) files.set(`${skill.dir}/${file.path}`, text);
    }
  }
  for (const ref of references) files.set(ref.path, ref.text);
  return files;
}

/** One pass over all files for all merged names: name → files mentioning it. */
function indexMentions(files: ReadonlyMap<string, string>, names: readonly string[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>(names.map((n) => [n, new Set<string>()]));
  if (names.length === 0) return index;
  const lengths = new Set(names.map((n) => n.length));
  for (const [path, text] of files) {
    // Every mention, repeats included: adding a path twice is harmless and cheaper than a Set of the text's words.
    for (const word of listWantedWords(text, index, lengths)) (index.get(word) as Set<string>).add(path);
  }
  return index;
}

interface RewriteScope {
  outside: ReadonlyMap<string, string>;
  mentions: ReadonlyMap<string, Set<string>>;
  byName: ReadonlyMap<string, SkillFeatures>;
  /** Folders (with a trailing `/`) of skills that may not be touched. */
  untouchable: readonly string[];
}

/**
 * Rewrites mentions of merged names in curatable skills and reference files.
 * A pinned, bundled, hub, protected or person's skill is never touched
 * (DESIGN §8): its mentions are listed for a person instead.
 */
function addReferenceRewrites(plan: ConsolidationPlan, moves: ReadonlyMap<string, MovedTarget>, scope: RewriteScope): ConsolidationPlan {
  const { outside, mentions, byName } = scope;
  const ownDirs = [plan.intoDir, ...plan.from.map((n) => byName.get(n)?.skill.dir ?? '')].map((d) => `${d}/`);
  const words = new Map<string, string>(plan.from.map((n) => [n, plan.into]));
  for (const [from, to] of moves) words.set(from, to.path);
  const candidates = new Set(plan.from.flatMap((n) => [...(mentions.get(n) ?? [])]));
  const changes = [...plan.changes];
  const rewritten: string[] = [];
  const mentionsLeft: string[] = [];
  for (const path of [...candidates].sort()) {
    if (ownDirs.some((d) => path.startsWith(d))) continue;
    const before = outside.get(path) as string;
    const after = rewriteText(before, { words, ...(isMarkdownPath(path) ? { mapLink: mapMovedLink(path, path, moves) } : {}) });
    if (after === before) continue;
    if (scope.untouchable.some((d) => path.startsWith(d))) {
      mentionsLeft.push(path);
      continue;
    }
    changes.push({ path, content: after });
    rewritten.push(path);
  }
  return { ...plan, changes, rewritten, mentionsLeft };
}

/** The guard's view of one plan, rebuilt from the planner's input: for a later check (after an LLM rewrote the umbrella). */
export function buildGuardInput(
  plan: ConsolidationPlan,
  input: Pick<ConsolidationInput, 'skills' | 'references'>,
): { before: CuratedSkill[]; outside: Map<string, string> } {
  const names = new Set([plan.into, ...plan.from]);
  const before = input.skills.filter((s) => names.has(s.name));
  const files = buildOutsideFiles(input.skills, input.references ?? []);
  return { before, outside: new Map(plan.rewritten.map((p) => [p, files.get(p) ?? ''])) };
}
