import { archiveDirName, skillFileName } from '../layout.js';
import type { ConsolidationConfig } from './config.js';
import { buildUmbrellaDescription } from './description.js';
import type { SkillFeatures } from './features.js';
import { demoteHeadings, humanize, slugAnchor, splitTitle } from './markdown.js';
import { contentText, isMarkdownPath, mapMovedLink, placeSupportFile, recordMoves, type FileTable, type MovedTarget } from './package.js';
import { resolveRepoLink, rewriteText } from './rewrite.js';
import { stringField } from '../skill/types.js';
import type { ArchiveMove, Cluster, ConsolidationPlan, PlannedChange } from './types.js';
import { buildMergedUmbrellaText, buildNewUmbrellaText, chooseUmbrella, unionPaths, unionTools, type UmbrellaFields } from './umbrella.js';
import { planNotice } from './notice.js';
import { listPointers, rewritePointers } from './pointers.js';
import { SeenText } from './overlap.js';
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
  /** Support files the umbrella already has byte for byte: not copied, not rewritten. */
  shared: Set<string>;
}

/** The plan for one cluster, before reference rewriting and the guard. */
export function planCluster(cluster: Cluster, members: readonly SkillFeatures[], ctx: PlanClusterContext): Attempt {
  const first = planWith(cluster, members, ctx, new Set());
  // A copy whose own frontmatter breaks the spec (a source's nested `metadata`) makes an invalid umbrella; its twin may not.
  if (!('skipped' in first) || first.umbrella === undefined) return first;
  const second = planWith(cluster, members, ctx, new Set([first.umbrella]));
  return 'skipped' in second ? first : second;
}

type Attempt = Exclude<ClusterPlanResult, { skipped: string }> | { skipped: string; umbrella?: string };

function planWith(cluster: Cluster, members: readonly SkillFeatures[], ctx: PlanClusterContext, avoid: ReadonlySet<string>): Attempt {
  const choice = chooseUmbrella(members, cluster.evidence.prefix, ctx.taken, ctx.config, avoid);
  const umbrella = choice.kind === 'existing' ? choice.umbrella : undefined;
  const name = choice.kind === 'existing' ? choice.umbrella.name : choice.name;
  const siblings = members.filter((m) => m !== umbrella).sort((a, b) => a.name.localeCompare(b.name));
  const dir = umbrella ? umbrella.skill.dir : newUmbrellaDir(name, members, ctx.skillsDir);
  const table: FileTable = new Map(umbrella ? umbrella.skill.files.map((f) => [f.path, f.content]) : []);
  const { sections, moves } = placeSections(siblings, { name, dir, table, existing: umbrella !== undefined });
  if (umbrella) rewriteOwnMarkdown(umbrella, table, moves);
  const demoted: string[] = [];
  const collapsed: string[] = [];
  const nearCopies: string[] = [];
  const seen = new SeenText([name, ...siblings.map((m) => m.name)]);
  if (umbrella) seen.add(umbrella.parsed.body);
  const rendered = sections.flatMap((section) => {
    moveSupportFiles(section, dir, table, moves);
    const part = renderSection(section, { dir, table, moves, config: ctx.config, seen });
    if (part.kind === 'copy') collapsed.push(section.member.name);
    if (part.kind === 'near-copy') nearCopies.push(section.member.name);
    if (part.kind === 'demoted') demoted.push(section.member.name);
    return part.kind === 'copy' ? [] : [{ section, text: part.text }];
  });
  const parts = rendered.map((r) => r.text);
  const terms = planNotice(umbrella, siblings);
  if (terms.notice !== undefined) {
    const at = placeSupportFile(table, name, 'references/NOTICE.md');
    table.set(at, terms.notice);
    parts.push(`## Notice\n\nParts of this skill come from skills under other terms or by other authors: see [${at}](${at}).\n`);
  }
  let text: string;
  try {
    text = writeUmbrellaText({
      name,
      dir,
      umbrella,
      siblings,
      members,
      parts,
      titles: rendered.map((r) => r.section.title),
      license: terms.license,
      facets: rendered.map((r) => r.section.member),
      moves,
    });
  } catch (error) {
    return { skipped: `the umbrella ${name} could not be written: ${error instanceof Error ? error.message : String(error)}` };
  }
  // A line that points at an absorbed member now points at its section; what cannot be pointed is flagged below.
  text = rewritePointers(text);
  table.set(skillFileName, text);
  const invalid = checkUmbrellaValid({ name, dir, table, members, ...(ctx.validations ? { validations: ctx.validations } : {}) });
  if (invalid) return { skipped: invalid, ...(umbrella ? { umbrella: umbrella.name } : {}) };
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
      collapsed,
      nearCopies,
      pointers: listPointers(
        skillFileName,
        text,
        siblings.map((m) => m.name),
        new Set(sections.map((s) => s.title)),
      ),
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
    const shared = new Set<string>();
    for (const file of member.skill.files) {
      // A file the umbrella has byte for byte already (the same LICENSE.txt) is not copied again.
      if (sameContent(target.table.get(file.path), file.content)) {
        placed.set(file.path, file.path);
        shared.add(file.path);
        continue;
      }
      const at = placeSupportFile(target.table, member.name, file.path);
      placed.set(file.path, at);
      target.table.set(at, file.content);
    }
    recordMoves(moves, member.skill, { dir: target.dir, anchor: slugAnchor(title), placed });
    return { member, title, anchor: slugAnchor(title), placed, shared };
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
  /** A new umbrella's license, when every member states the same one. */
  license: string | undefined;
  /** The siblings that have a section (a copy adds no facet to the description). */
  facets: readonly SkillFeatures[];
  moves: ReadonlyMap<string, MovedTarget>;
}

function writeUmbrellaText(input: UmbrellaTextInput): string {
  const { name, dir, umbrella, siblings, parts } = input;
  const wording = buildUmbrellaDescription({
    topic: humanize(name, input.titles),
    ...(umbrella ? { base: textField(umbrella.parsed.fields.description) } : {}),
    members: input.facets.map((m) => {
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
    ...(input.license === undefined ? {} : { license: input.license }),
  };
  if (!umbrella)
    return buildNewUmbrellaText(fields, `# ${humanize(name, input.titles)}\n\n${introParagraph(input.titles)}\n\n${parts.join('\n')}`);
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
    if (section.shared.has(file.path)) continue;
    const at = section.placed.get(file.path) as string;
    const text = isMarkdownPath(file.path) ? contentText(file.content) : undefined;
    if (text === undefined) continue;
    table.set(at, rewriteText(text, { mapLink: mapMovedLink(`${section.member.skill.dir}/${file.path}`, `${dir}/${at}`, moves) }));
  }
}

interface SectionContext {
  dir: string;
  table: FileTable;
  moves: ReadonlyMap<string, MovedTarget>;
  config: ConsolidationConfig;
  /** What the umbrella holds so far: a member already in it is a copy, one mostly in it adds what differs. */
  seen: SeenText;
}

/** A near copy adds only what differs when no more than this share of its paragraphs is new. */
const nearCopyShare = 0.3;

function renderSection(section: Section, ctx: SectionContext): { kind: 'copy' | 'inline' | 'demoted' | 'near-copy'; text: string } {
  const { member, title } = section;
  const { dir, table, moves, config, seen } = ctx;
  const whole = seen.residue(member.parsed.body);
  if (whole.text === '') return { kind: 'copy', text: '' };
  // trimEnd drops the trailing run of `\s` the pattern `\s+$` would, without trying the pattern at every position.
  const rest = splitTitle(member.parsed.body).rest.replace(/^\n+/, '').trimEnd();
  const description = (stringField(member.parsed, 'description') ?? '').trim();
  // Where the section came from is for people and tools, not prose the agent reads: an HTML comment.
  const lead = `## ${title}\n\n<!-- skillgarden: from the skill ${member.name} (${member.skill.dir}) -->\n${description}\n`;
  const oldFile = `${member.skill.dir}/${skillFileName}`;
  const inline = (text: string) => rewriteText(text, { mapLink: mapMovedLink(oldFile, `${dir}/${skillFileName}`, moves) });
  const done = (kind: 'inline' | 'demoted' | 'near-copy', text: string) => {
    seen.add(text);
    return { kind, text };
  };
  if (whole.missing <= whole.total * nearCopyShare) {
    // A near copy's links to files the copy lacked (the source left them out) point where the umbrella's own do: kept as written.
    const mapped = mapMovedLink(oldFile, `${dir}/${skillFileName}`, moves);
    const residue = rewriteText(seen.residue(rest).text, {
      mapLink: (target) => (moved(oldFile, target, moves) ? mapped(target) : undefined),
    });
    return done(
      'near-copy',
      `${lead}\nThe notes above hold the rest of this skill; only what differs is here.\n\n${demoteHeadings(residue)}\n`,
    );
  }
  if (rest.split('\n').length <= config.demote_min_lines) return done('inline', `${lead}\n${demoteHeadings(inline(rest))}\n`);
  const at = placeSupportFile(table, member.name, `references/${member.name}.md`);
  const notes = `# ${title}\n\n${rewriteText(rest, { mapLink: mapMovedLink(oldFile, `${dir}/${at}`, moves) })}\n`;
  table.set(at, notes);
  seen.add(notes);
  return done('demoted', `${lead}\nThe full notes: [${at}](${at}).\n`);
}

function moved(file: string, target: string, moves: ReadonlyMap<string, MovedTarget>): boolean {
  const resolved = resolveRepoLink(file, target);
  return resolved !== undefined && moves.has(resolved.path);
}

function sameContent(a: Uint8Array | string | undefined, b: Uint8Array | string): boolean {
  if (a === undefined) return false;
  const left = typeof a === 'string' ? new TextEncoder().encode(a) : a;
  const right = typeof b === 'string' ? new TextEncoder().encode(b) : b;
  return left.length === right.length && left.every((byte, i) => byte === right[i]);
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
