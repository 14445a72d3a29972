const maxNameLength = 64;

/**
 * A kebab-case skill name from the words of a task, not from its tools:
 * the first three recurring request words (`fix`, `failing`, `test` → `fix-failing-test`), at most 64 characters.
 */
export function buildTaskName(words: readonly string[]): string | undefined {
  const parts = words
    .map((w) =>
      w
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, ''),
    )
    .filter((w) => w !== '')
    .slice(0, 3);
  let name = '';
  for (const part of parts) {
    const next = name === '' ? part : `${name}-${part}`;
    if (next.length > maxNameLength) break;
    name = next;
  }
  return name === '' ? undefined : name;
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
