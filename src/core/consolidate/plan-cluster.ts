import { archiveDirName, skillFileName } from '../layout.js';
import type { ConsolidationConfig } from './config.js';
import { buildUmbrellaDescription } from './description.js';
import type { SkillFeatures } from './features.js';
import { demoteHeadings, humanize, slugAnchor, splitTitle } from './markdown.js';
import { contentText, isMarkdownPath, mapMovedLink, placeSupportFile, recordMoves, type FileTable, type MovedTarget } from './package.js';
import { rewriteText } from './rewrite.js';
import { stringField } from '../skill/types.js';
import type { ArchiveMove, Cluster, ConsolidationPlan, PlannedChange } from './types.js';
import { buildMergedUmbrellaText, buildNewUmbrellaText, chooseUmbrella, unionPaths, unionTools, type UmbrellaFields } from './umbrella.js';
import { checkUmbrellaValid, type PortableValidations } from './validity.js';

export interface PlanClusterContext {
  config: ConsolidationConfig;
  skillsDir: string;
  now: Date;
  /** Every skill name in the library, curated or not. */
  taken: ReadonlySet<string>;
  /** Repository paths of existing archive folders (an archive never overwrites one). */
  occupied: ReadonlySet<string>;
  /** The run's portable validations, which the guard's check of the same umbrella reuses. */
  validations?: PortableValidations;
}

/** A plan with where each absorbed file went (for rewriting references), or why there is none. */
export type ClusterPlanResult = { plan: ConsolidationPlan; moves: ReadonlyMap<string, MovedTarget> } | { skipped: string };

interface Section {
  member: SkillFeatures;
  title: string;
  anchor: string;
  placed: Map<string, string>;
}

/** The plan for one cluster, before reference rewriting and the guard. */
export function planCluster(cluster: Cluster, members: readonly SkillFeatures[], ctx: PlanClusterContext): ClusterPlanResult {
  const choice = chooseUmbrella(members, cluster.evidence.prefix, ctx.taken, ctx.config);
  const umbrella = choice.kind === 'existing' ? choice.umbrella : undefined;
  const name = choice.kind === 'existing' ? choice.umbrella.name : choice.name;
  const siblings = members.filter((m) => m !== umbrella).sort((a, b) => a.name.localeCompare(b.name));
  const dir = umbrella ? umbrella.skill.dir : newUmbrellaDir(name, members, ctx.skillsDir);
  const table: FileTable = new Map(umbrella ? umbrella.skill.files.map((f) => [f.path, f.content]) : []);
  const { sections, moves } = placeSections(siblings, { name, dir, table, existing: umbrella !== undefined });
  if (umbrella) rewriteOwnMarkdown(umbrella, table, moves);
  const demoted: string[] = [];
  const parts = sections.map((section) => {
    moveSupportFiles(section, dir, table, moves);
    const part = renderSection(section, dir, table, moves, ctx.config);
    if (part.demoted) demoted.push(section.member.name);
    return part.text;
  });
  let text: string;
  try {
    text = writeUmbrellaText({ name, dir, umbrella, siblings, members, parts, titles: sections.map((x) => x.title), moves });
  } catch (error) {
    return { skipped: `the umbrella ${name} could not be written: ${error instanceof Error ? error.message : String(error)}` };
  }
  table.set(skillFileName, text);
  const invalid = checkUmbrellaValid({ name, dir, table, members, ...(ctx.validations ? { validations: ctx.validations } : {}) });
  if (invalid) return { skipped: invalid };
  const archived = siblings.map((m) => archiveTarget(m, ctx));
  return {
    plan: {
      kind: umbrella ? (demoted.length === siblings.length ? 'demote' : 'merge') : 'create',
      into: name,
      intoDir: dir,
      from: siblings.map((m) => m.name),
      reason: choice.why,
      evidence: cluster.evidence,
      archived,
      rewritten: [],
      mentionsLeft: [],
      demoted,
      changes: [...umbrellaChanges(dir, table, umbrella), ...archiveChanges(siblings, archived)],
    },
    moves,
  };
}

/**
 * A section title and anchor per sibling, and a place in the umbrella for
 * each of its support files; every move is recorded before any text is
 * rewritten, so links between siblings (even in a cycle) find their targets.
 */
function placeSections(
  siblings: readonly SkillFeatures[],
  target: { name: string; dir: string; table: FileTable; existing: boolean },
): { sections: Section[]; moves: Map<string, MovedTarget> } {
  const moves = new Map<string, MovedTarget>();
  const usedAnchors = new Set<string>(target.existing ? [] : [slugAnchor(humanize(target.name))]);
  const sections = siblings.map((member) => {
    let title = splitTitle(member.parsed.body).title ?? humanize(member.name);
    if (usedAnchors.has(slugAnchor(title))) title = `${title} (${member.name})`;
    usedAnchors.add(slugAnchor(title));
    const placed = new Map<string, string>();
    for (const file of member.skill.files) {
      const at = placeSupportFile(target.table, member.name, file.path);
      placed.set(file.path, at);
      target.table.set(at, file.content);
    }
    recordMoves(moves, member.skill, { dir: target.dir, anchor: slugAnchor(title), placed });
    return { member, title, anchor: slugAnchor(title), placed };
  });
  return { sections, moves };
}

/** An existing umbrella's own Markdown may link to its siblings: those links follow them in. */
function rewriteOwnMarkdown(umbrella: SkillFeatures, table: FileTable, moves: ReadonlyMap<string, MovedTarget>): void {
  for (const file of umbrella.skill.files) {
    const text = isMarkdownPath(file.path) ? contentText(file.content) : undefined;
    if (text === undefined) continue;
    const path = `${umbrella.skill.dir}/${file.path}`;
    const next = rewriteText(text, { mapLink: mapMovedLink(path, path, moves) });
    if (next !== text) table.set(file.path, next);
  }
}

interface UmbrellaTextInput {
  name: string;
  dir: string;
  umbrella: SkillFeatures | undefined;
  siblings: readonly SkillFeatures[];
  members: readonly SkillFeatures[];
  parts: readonly string[];
  /** Section titles, in order (each member's own title). */
  titles: readonly string[];
  moves: ReadonlyMap<string, MovedTarget>;
}

function writeUmbrellaText(input: UmbrellaTextInput): string {
  const { name, dir, umbrella, siblings, parts } = input;
  const wording = buildUmbrellaDescription({
    topic: humanize(name),
    ...(umbrella ? { base: textField(umbrella.parsed.fields.description) } : {}),
    members: siblings.map((m) => {
      const own = m.parsed.fields.when_to_use;
      return {
        name: m.name,
        description: textField(m.parsed.fields.description),
        ...(typeof own === 'string' ? { whenToUse: own } : {}),
      };
    }),
  });
  const fields: UmbrellaFields = {
    name,
    description: wording.description,
    ...(wording.whenToUse === undefined ? {} : { whenToUse: wording.whenToUse }),
    tools: unionTools(input.members),
    paths: unionPaths(input.members),
    absorbed: siblings.map((m) => m.name),
  };
  if (!umbrella) return buildNewUmbrellaText(fields, `# ${humanize(name)}\n\n${introParagraph(input.titles)}\n\n${parts.join('\n')}`);
  const own = rewriteText(umbrella.parsed.body, {
    mapLink: mapMovedLink(`${dir}/${skillFileName}`, `${dir}/${skillFileName}`, input.moves),
  });
  return buildMergedUmbrellaText(umbrella, fields, `${own.replace(/\n*$/, '\n')}\n${parts.join('\n')}`);
}

function textField(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function moveSupportFiles(section: Section, dir: string, table: FileTable, moves: ReadonlyMap<string, MovedTarget>): void {
  for (const file of section.member.skill.files) {
    const at = section.placed.get(file.path) as string;
    const text = isMarkdownPath(file.path) ? contentText(file.content) : undefined;
    if (text === undefined) continue;
    table.set(at, rewriteText(text, { mapLink: mapMovedLink(`${section.member.skill.dir}/${file.path}`, `${dir}/${at}`, moves) }));
  }
}

function renderSection(
  section: Section,
  dir: string,
  table: FileTable,
  moves: ReadonlyMap<string, MovedTarget>,
  config: ConsolidationConfig,
): { text: string; demoted: boolean } {
  const { member, title } = section;
  // trimEnd drops the trailing run of `\s` the pattern `\s+$` would, without trying the pattern at every position.
  const rest = splitTitle(member.parsed.body).rest.replace(/^\n+/, '').trimEnd();
  const description = (stringField(member.parsed, 'description') ?? '').trim();
  // Where the section came from is for people and tools, not prose the agent reads: an HTML comment.
  const lead = `## ${title}\n\n<!-- skillgarden: from the skill ${member.name} (${member.skill.dir}) -->\n${description}\n`;
  const oldFile = `${member.skill.dir}/${skillFileName}`;
  if (rest.split('\n').length <= config.demote_min_lines) {
    const moved = rewriteText(rest, { mapLink: mapMovedLink(oldFile, `${dir}/${skillFileName}`, moves) });
    return { text: `${lead}\n${demoteHeadings(moved)}\n`, demoted: false };
  }
  const at = placeSupportFile(table, member.name, `references/${member.name}.md`);
  table.set(at, `# ${title}\n\n${rewriteText(rest, { mapLink: mapMovedLink(oldFile, `${dir}/${at}`, moves) })}\n`);
  return { text: `${lead}\nThe full notes: [${at}](${at}).\n`, demoted: true };
}

function introParagraph(titles: readonly string[]): string {
  return `One section per task: ${titles.join('; ')}.`;
}

function newUmbrellaDir(name: string, members: readonly SkillFeatures[], skillsDir: string): string {
  const categories = new Set(members.map((m) => m.skill.category ?? ''));
  const [category] = categories;
  return categories.size === 1 && category ? `${skillsDir}/${category}/${name}` : `${skillsDir}/${name}`;
}

function stamp(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

function archiveTarget(member: SkillFeatures, ctx: PlanClusterContext): ArchiveMove {
  const base = `${ctx.skillsDir}/${archiveDirName}/${member.skill.category ? `${member.skill.category}/` : ''}${member.name}`;
  const to = ctx.occupied.has(base) ? `${base}-${stamp(ctx.now)}` : base;
  return { name: member.name, from: member.skill.dir, to };
}

function umbrellaChanges(dir: string, table: FileTable, umbrella: SkillFeatures | undefined): PlannedChange[] {
  const before = new Map<string, unknown>(
    umbrella ? [[skillFileName, umbrella.skill.text], ...umbrella.skill.files.map((f) => [f.path, f.content] as const)] : [],
  );
  return [...table]
    .filter(([path, content]) => before.get(path) !== content)
    .map(([path, content]) => ({ path: `${dir}/${path}`, content }));
}

/** The whole package moves: every file deleted at its old path and written, byte for byte, under the archive. */
function archiveChanges(siblings: readonly SkillFeatures[], archived: readonly ArchiveMove[]): PlannedChange[] {
  return siblings.flatMap((member, i) => {
    const to = (archived[i] as ArchiveMove).to;
    const files = [{ path: skillFileName, content: member.skill.text as Uint8Array | string }, ...member.skill.files];
    return files.flatMap((f) => [
      { path: `${member.skill.dir}/${f.path}`, content: null },
      { path: `${to}/${f.path}`, content: f.content },
    ]);
  });
}
