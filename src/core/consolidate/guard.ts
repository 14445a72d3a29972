import { skillFileName } from '../layout.js';
import { extractLinks } from '../rules/index.js';
import { splitSkill } from '../skill/index.js';
import { validateSkill } from '../validate.js';
import { listHeadings, listParagraphs } from './markdown.js';
import { contentText, isMarkdownPath } from './package.js';
import { NameMask } from './mask.js';
import { resolveRepoLink } from './rewrite.js';
import { unpointText } from './pointers.js';
import type { ConsolidationPlan, CuratedSkill } from './types.js';
import { sizeEntries, toleratedCodes, type PortableValidations } from './validity.js';

export interface GuardInput {
  plan: ConsolidationPlan;
  /** The plan's skills as they were: the umbrella (when it existed) and every absorbed member. */
  before: readonly CuratedSkill[];
  /** Files outside the plan's skills as they were (repository path → text): at least every one the plan changes. */
  outside: ReadonlyMap<string, string>;
  /** The planning run's portable validations: the umbrella as the planner validated it is not validated again. */
  validations?: PortableValidations;
}

type Files = Map<string, Uint8Array | string>;

/**
 * The check Hermes lacks: every absorbed skill's headings, paragraphs and
 * support files are findable in the umbrella, its archive copy is complete,
 * links still resolve, and nothing outside the plan changed but the names.
 * Returns the problems; an empty list accepts the plan. Checks the result,
 * not the planner's bookkeeping, so a planner bug cannot pass.
 */
export function checkPlan(input: GuardInput): string[] {
  const { plan } = input;
  const problems: string[] = [];
  const byName = new Map(input.before.map((s) => [s.name, s]));
  const umbrellaBefore = byName.get(plan.into);
  const after: Files = new Map(umbrellaBefore ? packageFiles(umbrellaBefore) : []);
  const writes = new Map<string, Uint8Array | string | null>();
  for (const change of plan.changes) {
    if (writes.has(change.path)) problems.push(`${change.path} is changed twice`);
    writes.set(change.path, change.content);
  }
  const names = [plan.into, ...plan.from];
  const mask = memoMask(names);
  const archives = new Map(plan.archived.map((a) => [a.name, a]));
  // Each folder's prefix made once per plan, not once per write and folder.
  const intoPrefix = `${plan.intoDir}/`;
  const fromPrefixes = plan.from.map((n) => `${byName.get(n)?.dir}/`);
  const archivePrefixes = plan.archived.map((a) => `${a.to}/`);
  for (const [path, content] of writes) {
    if (path.startsWith(intoPrefix)) {
      if (content === null) after.delete(path.slice(plan.intoDir.length + 1));
      else after.set(path.slice(plan.intoDir.length + 1), content);
    } else if (fromPrefixes.some((prefix) => path.startsWith(prefix))) {
      if (content !== null) problems.push(`${path} is written inside an absorbed skill's folder`);
    } else if (archivePrefixes.some((prefix) => path.startsWith(prefix))) {
      if (content === null) problems.push(`${path} is deleted inside an archive`);
    } else problems.push(...checkOutside(path, content, input.outside.get(path), mask));
  }
  const view = buildUmbrellaView(after, mask);
  for (const name of plan.from) {
    const member = byName.get(name);
    const archive = archives.get(name);
    if (!member || !archive) {
      problems.push(`${name} is absorbed but its ${member ? 'archive move' : 'original content'} is unknown`);
      continue;
    }
    for (const [path, content] of packageFiles(member)) {
      if (writes.get(`${member.dir}/${path}`) !== null) problems.push(`${member.dir}/${path} is not moved out of the absorbed skill`);
      if (!sameBytes(writes.get(`${archive.to}/${path}`), content)) problems.push(`the archive ${archive.to} lacks ${path} as it was`);
    }
    problems.push(...checkFindable(member, view, mask));
  }
  problems.push(...checkLinks(input.before, plan, after), ...checkValid(plan, after, input.before, input.validations));
  return problems;
}

function packageFiles(skill: CuratedSkill): Files {
  return new Map<string, Uint8Array | string>([[skillFileName, skill.text], ...skill.files.map((f) => [f.path, f.content] as const)]);
}

function sameBytes(a: Uint8Array | string | null | undefined, b: Uint8Array | string): boolean {
  if (a === null || a === undefined) return false;
  // Equal strings are equal bytes; unequal ones may still encode alike (two lone surrogates both become U+FFFD).
  if (a === b) return true;
  const left = typeof a === 'string' ? new TextEncoder().encode(a) : a;
  const right = typeof b === 'string' ? new TextEncoder().encode(b) : b;
  if (left.length !== right.length) return false;
  for (let i = 0; i < left.length; i++) if (left[i] !== right[i]) return false;
  return true;
}

/** Text with link targets and the plan's names (and any path-like word holding one) blanked. */
export function maskText(text: string, names: readonly string[]): string {
  return new NameMask(names).mask(text);
}

type Mask = (text: string) => string;

/** maskText for one plan's names, each distinct text masked once (an absorbed note is masked as the member's and as the umbrella's copy). */
function memoMask(names: readonly string[]): Mask {
  const masker = new NameMask(names);
  const done = new Map<string, string>();
  return (text) => {
    let masked = done.get(text);
    if (masked === undefined) done.set(text, (masked = masker.mask(text)));
    return masked;
  };
}

function checkOutside(path: string, content: Uint8Array | string | null, before: string | undefined, mask: Mask): string[] {
  if (before === undefined) return [`${path} is outside the plan's skills and not a known reference file`];
  const text = content === null ? undefined : contentText(content);
  if (text === undefined) return [`${path} is outside the plan's skills and would be removed or made binary`];
  if (mask(text) !== mask(before)) return [`${path} is outside the plan's skills and changed beyond the merged names`];
  return [];
}

/** The paragraphs, whitespace collapsed (listParagraphs collapses it already); a name in a code span reads as the name, as a pointer link gives it back. */
function normalize(masked: string): string[] {
  return listParagraphs(masked.includes('`\u00a7`') ? masked.replaceAll('`\u00a7`', '\u00a7') : masked);
}

/** What the umbrella holds, masked once per plan: headings, paragraphs, and each file. */
interface UmbrellaView {
  headings: string[];
  /** Every paragraph of the umbrella, whole: a member's paragraph found here is in the corpus without searching it. */
  paragraphs: Set<string>;
  /** The paragraphs joined by newlines, searched for a member's paragraph that is not one of them (made when first needed). */
  corpus: () => string;
  maskedMarkdown: Set<string>;
  files: Array<Uint8Array | string>;
}

function buildUmbrellaView(after: Files, mask: Mask): UmbrellaView {
  const markdown = [...after].filter(([path]) => isMarkdownPath(path)).map(([, c]) => unpointText(contentText(c) ?? ''));
  const masked = markdown.map(mask);
  const paragraphs = masked.flatMap(normalize);
  let corpus: string | undefined;
  return {
    headings: markdown.flatMap((t) => listHeadings(t)),
    paragraphs: new Set(paragraphs),
    corpus: () => (corpus ??= paragraphs.join('\n')),
    maskedMarkdown: new Set(masked),
    files: [...after.values()],
  };
}

/** Every heading and paragraph of the member's body, and every support file, is somewhere in the umbrella. */
function checkFindable(member: CuratedSkill, view: UmbrellaView, mask: Mask): string[] {
  const problems: string[] = [];
  // The body a parse would give, without parsing the YAML: the guard reads no field.
  const body = splitSkill(member.text).body;
  for (const heading of listHeadings(body)) {
    if (!view.headings.some((h) => h.includes(heading))) problems.push(`${member.name}: heading "${heading}" is not in the umbrella`);
  }
  for (const paragraph of normalize(mask(body))) {
    if (!view.paragraphs.has(paragraph) && !view.corpus().includes(paragraph))
      problems.push(`${member.name}: a paragraph is missing from the umbrella: "${paragraph.slice(0, 60)}"`);
  }
  for (const file of member.files) {
    const found = isMarkdownPath(file.path)
      ? view.maskedMarkdown.has(mask(contentText(file.content) ?? ''))
      : view.files.some((c) => sameBytes(c, file.content));
    if (!found) problems.push(`${member.name}: support file ${file.path} is not in the umbrella`);
  }
  return problems;
}

/** Relative links that do not resolve inside their skill: the umbrella may not have more than its parts had. */
function countBroken(dir: string, files: Files): number {
  let broken = 0;
  for (const [path, content] of files) {
    if (!isMarkdownPath(path)) continue;
    const text = path === skillFileName ? splitSkill(contentText(content) ?? '').body : (contentText(content) ?? '');
    for (const link of extractLinks(text)) {
      const target = resolveRepoLink(`${dir}/${path}`, link.target);
      if (!target) continue;
      const inside = target.path === dir || target.path.startsWith(`${dir}/`);
      const rel = target.path.slice(dir.length + 1);
      if (!inside || (rel !== '' && !files.has(rel) && ![...files.keys()].some((k) => k.startsWith(`${rel}/`)))) broken++;
    }
  }
  return broken;
}

function checkLinks(before: readonly CuratedSkill[], plan: ConsolidationPlan, after: Files): string[] {
  const was = before.reduce((sum, s) => sum + countBroken(s.dir, packageFiles(s)), 0);
  const now = countBroken(plan.intoDir, after);
  return now > was ? [`${now - was} link(s) in the umbrella no longer resolve`] : [];
}

function checkValid(plan: ConsolidationPlan, after: Files, before: readonly CuratedSkill[], validations?: PortableValidations): string[] {
  const content = after.get(skillFileName);
  if (content === undefined) return [`the umbrella ${plan.intoDir} has no ${skillFileName}`];
  const contents = new Map([...after].filter(([p]) => p !== skillFileName));
  const file = `${plan.intoDir}/${skillFileName}`;
  const validation =
    validations && typeof content === 'string'
      ? validations.validate({ file, folder: plan.into, content, contents })
      : validateSkill({ file, folder: plan.into, files: sizeEntries(contents), content, profile: 'portable' });
  const errors = validation.findings.filter((f) => f.severity === 'error');
  const tolerated = errors.some((f) => f.code === 'skill/link-escapes') ? toleratedCodes(before) : new Set<string>();
  return errors.filter((f) => !tolerated.has(f.code)).map((f) => `the umbrella is invalid: ${f.code}: ${f.message}`);
}
