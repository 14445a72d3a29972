/**
 * When the frontmatter is not valid YAML, agent clients still load the skill by
 * reading top-level `key: value` lines (Hermes Agent does exactly this). We do
 * the same, so a broken skill is reported, not lost.
 */
export function parseFallbackFields(yaml: string): Record<string, unknown> {
  const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const line of yaml.split(/\r?\n/)) {
    const match = /^([A-Za-z0-9_.-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!match) continue;
    const [, key = '', raw = ''] = match;
    if (key === '__proto__' || key in fields) continue;
    fields[key] = unquote(raw);
  }
  return { ...fields };
}

function unquote(raw: string): string {
  if (raw.length >= 2 && ((raw.startsWith('"') && raw.endsWith('"')) || (raw.startsWith("'") && raw.endsWith("'")))) {
    return raw.slice(1, -1);
  }
  return raw;
}
