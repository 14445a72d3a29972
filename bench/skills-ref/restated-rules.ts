/**
 * A RE-STATEMENT of skills-ref's validation rules in TypeScript, written from
 * reading its source (agentskills/agentskills, skills-ref/src/skills_ref/
 * validator.py and parser.py). It is NOT the reference validator: the compare
 * script uses it only when the real one cannot be run, and says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isAlias, isCollection, isMap, isScalar, isSeq, parseDocument, visit, type Node } from 'yaml';

const allowedFields = new Set(['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility']);

/** Errors skills-ref would report for one skill folder (an empty list means valid). */
export function validateAsRestated(dir: string): string[] {
  const file = ['SKILL.md', 'skill.md'].map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) return ['Missing required file: SKILL.md'];
  const content = readFileSync(file, 'utf8');
  if (!content.startsWith('---')) return ['SKILL.md must start with YAML frontmatter (---)'];
  // Python's str.split("---", 2): the frontmatter ends at the next "---" anywhere, even mid-line.
  const end = content.indexOf('---', 3);
  if (end < 0) return ['SKILL.md frontmatter not properly closed with ---'];
  const parsed = parseStrictly(content.slice(3, end));
  if (typeof parsed === 'string') return [`Invalid YAML in frontmatter: ${parsed}`];
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return ['SKILL.md frontmatter must be a YAML mapping'];
  }
  return validateMetadata(parsed as Record<string, unknown>, basename(dir));
}

/** StrictYAML's subset: no flow style, anchors, aliases, tags or duplicate keys; every scalar a string. */
function parseStrictly(text: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return doc.errors[0]?.message ?? 'YAML error';
  let refusal: string | undefined;
  visit(doc, (_key, node) => {
    if (isCollection(node) && node.flow) refusal ??= 'Found ugly disallowed JSONesque flow mapping';
    if (isAlias(node) || ((isScalar(node) || isCollection(node)) && node.anchor)) refusal ??= 'Anchors and aliases are disallowed';
    if ((isScalar(node) || isCollection(node)) && node.tag) refusal ??= 'Tag tokens are not allowed';
  });
  return refusal ?? toStrings(doc.contents);
}

function toStrings(node: Node | null): unknown {
  if (node === null) return '';
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) out[String(isScalar(pair.key) ? pair.key.source : pair.key)] = toStrings(pair.value as Node | null);
    return out;
  }
  if (isSeq(node)) return node.items.map((item) => toStrings(item as Node | null));
  return isScalar(node) ? String(node.source ?? '') : '';
}

function validateMetadata(data: Record<string, unknown>, folder: string): string[] {
  const errors: string[] = [];
  const extra = Object.keys(data)
    .filter((key) => !allowedFields.has(key))
    .sort();
  if (extra.length > 0) errors.push(`Unexpected fields in frontmatter: ${extra.join(', ')}.`);
  if (!('name' in data)) errors.push('Missing required field in frontmatter: name');
  else errors.push(...validateName(data.name, folder));
  if (!('description' in data)) errors.push('Missing required field in frontmatter: description');
  else errors.push(...validateDescription(data.description));
  if ('compatibility' in data) {
    const value = data.compatibility;
    if (typeof value !== 'string') errors.push("Field 'compatibility' must be a string");
    else if ([...value].length > 500) errors.push('Compatibility exceeds 500 character limit');
  }
  const tools = data['allowed-tools'];
  if ('allowed-tools' in data && typeof tools !== 'string' && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string'))) {
    errors.push("Field 'allowed-tools' must be either a string or a list of strings");
  }
  return errors;
}

function validateName(value: unknown, folder: string): string[] {
  if (typeof value !== 'string' || value.trim() === '') return ["Field 'name' must be a non-empty string"];
  const name = value.trim().normalize('NFKC');
  const errors: string[] = [];
  if ([...name].length > 64) errors.push(`Skill name '${name}' exceeds 64 character limit`);
  if (name !== name.toLowerCase()) errors.push(`Skill name '${name}' must be lowercase`);
  if (name.startsWith('-') || name.endsWith('-')) errors.push('Skill name cannot start or end with a hyphen');
  if (name.includes('--')) errors.push('Skill name cannot contain consecutive hyphens');
  // Python's str.isalnum() accepts letters and digits of any script.
  if (!/^[\p{L}\p{N}-]+$/u.test(name)) errors.push(`Skill name '${name}' contains invalid characters.`);
  if (folder.normalize('NFKC') !== name) errors.push(`Directory name '${folder}' must match skill name '${name}'`);
  return errors;
}

function validateDescription(value: unknown): string[] {
  if (typeof value !== 'string' || value.trim() === '') return ["Field 'description' must be a non-empty string"];
  return [...value].length > 1024 ? ['Description exceeds 1024 character limit'] : [];
}
