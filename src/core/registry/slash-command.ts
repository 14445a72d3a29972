/** `/name args` as typed by a user. */
export interface SlashCommand {
  name: string;
  arguments: string;
}

/** Reads a slash command; undefined when the text is not one. */
export function parseSlashCommand(text: string): SlashCommand | undefined {
  const match = /^\s*\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return undefined;
  return { name: match[1] as string, arguments: (match[2] ?? '').trim() };
}
