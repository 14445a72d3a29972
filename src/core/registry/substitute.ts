/** Values a loaded skill's body may refer to. */
export interface SubstitutionValues {
  skillDir: string;
  sessionId: string;
}

// Claude Code's names and Hermes's, both with and without braces for the bare `$SKILL_DIR` forms agents write.
const variablePattern = /\$\{(HERMES_SKILL_DIR|HERMES_SESSION_ID|SKILL_DIR|SESSION_ID|CLAUDE_SKILL_DIR|CLAUDE_SESSION_ID)\}/g;

/** Replaces `${SKILL_DIR}` and `${SESSION_ID}` (and Hermes's and Claude Code's prefixed forms); anything else is left as written. */
export function substituteVariables(body: string, values: SubstitutionValues): string {
  return body.replace(variablePattern, (_, name: string) => (name.endsWith('SKILL_DIR') ? values.skillDir : values.sessionId));
}

/**
 * Splits slash-command arguments as a shell would for plain words: spaces
 * separate, single or double quotes group, a backslash escapes one character.
 */
export function splitArguments(raw: string): string[] {
  const args: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i] as string;
    if (char === '\\' && i + 1 < raw.length && quote !== "'") {
      current += raw[++i];
      started = true;
    } else if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

/**
 * Claude Code's argument substitution: `$ARGUMENTS` is the whole argument
 * string, `$ARGUMENTS[N]` and `$N` the N-th (0-based) argument, empty when
 * absent. When the body names no argument at all and arguments were given,
 * they are appended as `ARGUMENTS: …` so they are never silently dropped.
 */
export function substituteArguments(body: string, raw: string): string {
  const args = splitArguments(raw);
  let used = false;
  const replaced = body.replace(
    /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$(\d+)(?!\d)/g,
    (_match, indexed: string | undefined, positional: string | undefined) => {
      used = true;
      const index = indexed ?? positional;
      return index === undefined ? raw : (args[Number(index)] ?? '');
    },
  );
  if (used || raw.trim() === '') return replaced;
  return `${replaced.replace(/\s*$/, '')}\n\nARGUMENTS: ${raw}\n`;
}
