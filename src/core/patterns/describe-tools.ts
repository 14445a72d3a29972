/** What a tool is for, guessed from its name, so a draft can say when to use it. */
const purposes: readonly [RegExp, string][] = [
  [/^(git|gh)$/i, 'work with git'],
  [
    /^(npm|npx|pnpm|yarn|bun|node|tsc|vitest|jest|pytest|cargo|go|make|mix|python3?|pip|uv|ruby|rake|mvn|gradle)$/i,
    'build or test the project',
  ],
  [/(^|_)(find_file|glob|grep|rg|search|ls|list_directory|find)($|_)/i, 'find files or code'],
  [/(^|_)(read|open|view|cat|sed|head|tail|read_file|goto|scroll)/i, 'read files'],
  [/(edit|write|str_replace|apply_patch|create|insert|replace|patch)/i, 'change files'],
  [/(bash|shell|exec|run|command|terminal)/i, 'run shell commands'],
  [/^web|fetch|browse|curl|wget|http/i, 'look things up on the web'],
  [/todo|plan|think/i, 'plan the work'],
  [/^(task|agent|spawn)/i, 'delegate to a sub-agent'],
  [/submit|finish|done/i, 'finish the task'],
];

/** A short phrase saying what a token does: `Bash:git` → `work with git`. */
export function describeTool(token: string): string {
  const colon = token.indexOf(':');
  const candidates = colon >= 0 ? [token.slice(colon + 1), token.slice(0, colon)] : [token.split('__').pop() ?? token];
  for (const candidate of candidates) {
    const hit = purposes.find(([pattern]) => pattern.test(candidate));
    if (hit !== undefined) return hit[1];
  }
  return `use ${token.replace(/[<>]/g, '')}`;
}

/** Distinct purposes in order, joined as prose: `find files or code, read files and change files`. */
export function describeTools(tools: readonly string[]): string {
  const phrases = [...new Set(tools.map(describeTool))];
  if (phrases.length <= 1) return phrases[0] ?? '';
  return `${phrases.slice(0, -1).join(', ')} and ${phrases[phrases.length - 1]}`;
}

/** A human label for a token: `Bash:git` → `` `Bash` running `git` ``. */
export function renderToolLabel(token: string): string {
  const colon = token.indexOf(':');
  return colon >= 0 ? `\`${token.slice(0, colon)}\` running \`${token.slice(colon + 1)}\`` : `\`${token}\``;
}
