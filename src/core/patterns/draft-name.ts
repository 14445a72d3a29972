const maxNameLength = 64;

/** The word a token contributes: the program of a refined shell call, the tool part of an MCP name. */
function tokenWord(token: string): string {
  const colon = token.indexOf(':');
  if (colon >= 0) return token.slice(colon + 1);
  if (token.startsWith('mcp__')) return token.split('__')[2] ?? token.split('__')[1] ?? token;
  return token;
}

function firstWord(text: string): string {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
  const words = spaced.split(/[^A-Za-z0-9]+/).filter((w) => w !== '');
  return (words[0] ?? '').toLowerCase();
}

/**
 * A kebab-case skill name from a tool sequence: the first word of each tool,
 * de-duplicated, at most 64 characters.
 * `search_papers, download_paper, rag_search` → `search-download-rag`.
 */
export function buildDraftName(tools: readonly string[]): string {
  const words: string[] = [];
  for (const tool of tools) {
    const word = firstWord(tokenWord(tool));
    if (word !== '' && !words.includes(word)) words.push(word);
  }
  let name = '';
  for (const word of words) {
    const next = name === '' ? word : `${name}-${word}`;
    if (next.length > maxNameLength) break;
    name = next;
  }
  return name === '' ? 'tool-sequence' : name;
}

/** `name`, or `name-2`, `name-3`, … when taken. */
export function buildUniqueName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${name.slice(0, maxNameLength - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
