import { excerpt } from '../findings.js';
import { suggestKey } from './describe-schema.js';
import { renderPath, renderValue, safeString } from './render-value.js';
import { knownFields } from './skill-schema.js';
import type { FieldPath, ProfileName } from './types.js';

const dialects: readonly { profile: ProfileName; label: string }[] = [
  { profile: 'claude-code', label: 'a Claude Code field' },
  { profile: 'hermes', label: 'a Hermes Agent field' },
  { profile: 'portable', label: 'a skillgarden runtime field' },
];

export interface UnknownKeyInput {
  key: string;
  parentPath: FieldPath;
  known: readonly string[];
  profile: ProfileName;
}

export function unknownKeyHint(input: UnknownKeyInput): string {
  const { parentPath, known, profile } = input;
  const key = excerpt(input.key);
  const suggestion = suggestKey(input.key, known);
  if (suggestion !== undefined) return `Did you mean \`${suggestion}\`? Rename the key.`;
  if (parentPath.length > 0) return `Known keys of \`${renderPath(parentPath)}\`: ${known.join(', ')}. Check the spelling or remove it.`;
  const dialect = dialects.find((d) => knownFields(d.profile).has(key));
  if (dialect !== undefined) {
    return `\`${key}\` is ${dialect.label}, which the ${profile} profile does not include: validate with \`--profile ${dialect.profile}\`${dialect.profile === 'portable' ? '' : ' or `--profile portable`'}, or move it under \`metadata:\` as a string.`;
  }
  if (profile === 'spec' || profile === 'agent-plugins') {
    return `The spec profile allows only ${known.join(', ')}: move \`${key}\` under \`metadata:\` as a string, or validate with \`--profile portable\`.`;
  }
  return `No known dialect defines \`${key}\`: check the spelling, or move it under \`metadata:\`, where free keys belong.`;
}

export interface TypeHintInput {
  path: FieldPath;
  value: unknown;
  expected: string;
  profile: ProfileName;
}

export function typeHint(input: TypeHintInput): string {
  const { path, value, expected, profile } = input;
  const last = path[path.length - 1];
  const key = excerpt(String(last ?? 'key'));
  // A list item has no key of its own: show it as the `- item` line it is.
  const line = (text: string): string => (typeof last === 'number' ? `- ${text}` : `${key}: ${text}`);
  const wantsString = expected.startsWith('a string');
  if (path[0] === 'allowed-tools' && (profile === 'spec' || profile === 'agent-plugins') && Array.isArray(value)) {
    return `The spec wants one space-separated string: \`allowed-tools: ${excerpt(value.map(safeString).join(' '))}\`.`;
  }
  if (path[0] === 'metadata' && path.length === 2 && (profile === 'spec' || profile === 'agent-plugins')) {
    if (value !== null && typeof value === 'object') {
      return `\`metadata\` values must be strings under the spec profile: write \`${key}\` as one string, or validate with \`--profile portable\`${key === 'hermes' ? ' or `--profile hermes`' : ''}.`;
    }
    return `\`metadata\` values must be strings under the spec profile: quote it, e.g. \`${key}: "${renderValue(value)}"\`.`;
  }
  if (wantsString && Array.isArray(value) && value.length === 1 && typeof value[0] === 'string') {
    const item = excerpt(value[0]);
    return `YAML reads \`[${item}]\` as a list: quote it, e.g. \`${line(`"[${item}]"`)}\`.`;
  }
  if (wantsString && (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date)) {
    return `Quote it so YAML keeps it as text: \`${line(`"${renderValue(value)}"`)}\`.`;
  }
  if (value === null || value === undefined) return `Give \`${key}\` a value (${expected}), or remove the key.`;
  if (expected === 'true or false' && typeof value === 'string') return `Write \`${key}: true\` or \`${key}: false\`, without quotes.`;
  if (expected.startsWith('a list') && !Array.isArray(value) && typeof value !== 'object') {
    return `Write a list, e.g. \`${line(`[${renderValue(value)}]`)}\`.`;
  }
  return `Change \`${renderPath(path)}\` to ${expected}.`;
}
