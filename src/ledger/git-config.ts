/**
 * A snapshot of git's configuration: every `key=value` in git's order (system,
 * global, repository, worktree, command line), so the last value wins and a
 * multi-valued key keeps them all. Keys as `git config --list` prints them:
 * section and name lowercased, the subsection as written.
 */
export interface GitConfig {
  /** The last value of `key`; a key given without `=` reads as `true`, as git reads it. */
  get(key: string): string | undefined;
  all(key: string): string[];
  /** Git's booleans (true/yes/on/1, false/no/off/0/''); `undefined` when unset or not a boolean. */
  bool(key: string): boolean | undefined;
  /** Every key that starts with `prefix` (e.g. `filter.`). */
  keys(prefix: string): string[];
}

export function buildConfig(pairs: ReadonlyArray<readonly [string, string]>): GitConfig {
  const values = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    const name = normalizeKey(key);
    const list = values.get(name) ?? [];
    list.push(value);
    values.set(name, list);
  }
  const get = (key: string) => values.get(normalizeKey(key))?.at(-1);
  return {
    get,
    all: (key) => values.get(normalizeKey(key)) ?? [],
    bool: (key) => parseBool(get(key)),
    keys: (prefix) => [...values.keys()].filter((k) => k.startsWith(prefix)),
  };
}

export function parseBool(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'yes' || v === 'on' || v === '1') return true;
  if (v === '' || v === 'false' || v === 'no' || v === 'off' || v === '0') return false;
  return undefined;
}

/** `Section.Sub.Name` → `section.Sub.name`: git compares section and name without case, the subsection with it. */
export function normalizeKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/** `git config --list -z`: entries end with NUL, the key ends at the first newline (none: a bare key, which is `true`). */
export function parseConfigList(output: Buffer | string): Array<[string, string]> {
  const text = typeof output === 'string' ? output : output.toString('utf8');
  return text
    .split('\0')
    .filter((entry) => entry !== '')
    .map((entry) => {
      const newline = entry.indexOf('\n');
      return newline < 0 ? [entry, 'true'] : [entry.slice(0, newline), entry.slice(newline + 1)];
    });
}
