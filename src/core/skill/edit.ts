import { isMap, isScalar, Scalar, stringify, type Node, type Pair } from 'yaml';
import { SkillgardenError } from '../errors.js';
import { findNode, findPair } from './locate.js';
import type { FieldPath, ParsedSkill } from './types.js';

/**
 * Sets (or, with `undefined`, removes) one frontmatter field and returns the
 * new SKILL.md text. Only the bytes of that field change: other keys,
 * comments, order and quoting stay exactly as they were. Paths of one or two
 * keys are supported (`['pinned']`, `['metadata', 'version']`).
 */
export function setField(skill: ParsedSkill, path: FieldPath, value: unknown): string {
  const { document, sections } = skill;
  if (!document || !isMap(document.contents)) {
    throw new SkillgardenError('skill/not-editable', `${skill.file}: the frontmatter is not a YAML map, so a field cannot be set`, {
      data: { file: skill.file, path },
    });
  }
  if (path.length === 0 || path.length > 2 || path.some((key) => typeof key !== 'string')) {
    throw new SkillgardenError('skill/bad-field-path', `cannot set field ${JSON.stringify(path)}: use one or two keys`, {
      data: { path },
    });
  }
  const yaml = editYaml(sections.yaml, document.contents, path as readonly string[], value, sections.eol);
  const head = sections.head;
  return head + yaml + sections.close + sections.body;
}

function editYaml(src: string, root: Node, path: readonly string[], value: unknown, eol: string): string {
  const pair = findPair(root, path);
  if (pair) return value === undefined ? removePair(src, pair) : replaceValue(src, pair, value, eol);
  if (value === undefined) return src;
  const [first = '', second] = path;
  if (second === undefined) return appendLine(src, `${renderKey(first)}: ${renderInline(value)}`, eol);

  const parent = findNode(root, [first]);
  if (parent === undefined || parent === null) {
    const parentPair = findPair(root, [first]);
    const block = `${renderKey(first)}:${eol}  ${renderKey(second)}: ${renderInline(value)}`;
    return parentPair ? removePair(appendLine(src, block, eol), parentPair) : appendLine(src, block, eol);
  }
  if (isMap(parent) && !parent.flow && parent.range) {
    const firstKey = parent.items[0]?.key as Node | undefined;
    const indent = firstKey?.range ? columnOf(src, firstKey.range[0]) : 2;
    const end = parent.range[1];
    const needsBreak = end > 0 && src[end - 1] !== '\n';
    const line = `${' '.repeat(indent)}${renderKey(second)}: ${renderInline(value)}${eol}`;
    return src.slice(0, end) + (needsBreak ? eol : '') + line + src.slice(end);
  }
  const merged = isMap(parent) ? { ...(parent.toJSON() as object), [second]: value } : { [second]: value };
  return replaceValue(src, findPair(root, [first]) as Pair, merged, eol);
}

function replaceValue(src: string, pair: Pair, value: unknown, eol: string): string {
  const node = pair.value as Node | null;
  const keyEnd = (pair.key as Node).range?.[1] ?? 0;
  const colon = src.indexOf(':', keyEnd);
  const style = isScalar(node) ? node.type : undefined;
  if (!node?.range || (!isScalar(node) && !(node as { flow?: boolean }).flow) || isBlockScalar(style)) {
    // Block values start on the next line and end with its newline: replace from the colon on.
    const end = node?.range ? node.range[1] : colon + 1;
    const trailing = node?.range && src[end - 1] === '\n' ? eol : '';
    return `${src.slice(0, colon + 1)} ${renderInline(value, style)}${trailing}${src.slice(end)}`;
  }
  return src.slice(0, node.range[0]) + renderInline(value, style) + src.slice(node.range[1]);
}

function removePair(src: string, pair: Pair): string {
  const start = lineStart(src, (pair.key as Node).range?.[0] ?? 0);
  const valueEnd = (pair.value as Node | null)?.range?.[1] ?? (pair.key as Node).range?.[1] ?? start;
  const newline = src.indexOf('\n', valueEnd - 1);
  const end = src[valueEnd - 1] === '\n' ? valueEnd : newline < 0 ? src.length : newline + 1;
  return src.slice(0, start) + src.slice(end);
}

function appendLine(src: string, line: string, eol: string): string {
  const needsBreak = src.length > 0 && !src.endsWith('\n');
  return src + (needsBreak ? eol : '') + line + eol;
}

function isBlockScalar(style: string | undefined): boolean {
  return style === 'BLOCK_LITERAL' || style === 'BLOCK_FOLDED';
}

/** One line of YAML for a value: flow collections, and strings double-quoted when plain would be ambiguous. */
export function renderInline(value: unknown, style?: Scalar.Type): string {
  if (value !== null && typeof value === 'object') {
    return stringify(value, { flow: true, lineWidth: 0, blockQuote: false }).trim();
  }
  const scalar = new Scalar(value);
  if (typeof value === 'string' && (style === 'QUOTE_DOUBLE' || style === 'QUOTE_SINGLE')) scalar.type = style;
  return stringify(scalar, { lineWidth: 0, blockQuote: false }).trimEnd();
}

function renderKey(key: string): string {
  return renderInline(key);
}

function lineStart(src: string, offset: number): number {
  return src.lastIndexOf('\n', offset - 1) + 1;
}

function columnOf(src: string, offset: number): number {
  return offset - lineStart(src, offset);
}
