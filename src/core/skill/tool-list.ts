/**
 * `allowed-tools` as Claude Code reads it: a list, or one string split on commas and spaces, keeping a tool's
 * argument pattern whole (`Bash(git add *)` is one tool, not three). The registry and consolidation both read it here.
 */
export function readToolList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  if (typeof value !== 'string') return [];
  const tools: string[] = [];
  let current = '';
  let depth = 0;
  for (const char of value) {
    if (char === '(') depth++;
    if (char === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === ',' || /\s/.test(char))) {
      if (current.trim()) tools.push(current.trim());
      current = '';
    } else current += char;
  }
  if (current.trim()) tools.push(current.trim());
  return tools;
}
