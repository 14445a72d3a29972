/** The longest run of leading kebab tokens every name shares, or null when shorter than `minLength` characters. */
export function sharedPrefix(names: readonly string[], minLength: number): string | null {
  const [first, ...rest] = names.map((n) => n.split('-'));
  if (!first) return null;
  let count = first.length;
  for (const tokens of rest) {
    let i = 0;
    while (i < count && i < tokens.length && tokens[i] === first[i]) i++;
    count = i;
  }
  const prefix = first.slice(0, count).join('-');
  return prefix.length >= minLength ? prefix : null;
}

/**
 * Groups skill indices by leading name tokens, so only skills that could
 * share a prefix are compared. A big group is split by its next token; the
 * names too short to split are compared against the whole group. Each entry
 * `[a, b]` asks for every pair within `a` and every pair across `a` and `b`.
 */
export function groupByPrefix(tokens: readonly (readonly string[])[], maxGroup = 200): Array<[number[], number[]]> {
  const out: Array<[number[], number[]]> = [];
  const split = (members: number[], depth: number): void => {
    const groups = new Map<string, number[]>();
    const short: number[] = [];
    for (const i of members) {
      const t = tokens[i] as readonly string[];
      // A name whose prefix would be the whole name still pairs with longer names (`deploy` and `deploy-staging`).
      if (t.length <= depth) short.push(i);
      else {
        const key = t[depth] as string;
        const group = groups.get(key);
        if (group) group.push(i);
        else groups.set(key, [i]);
      }
    }
    for (const group of groups.values()) {
      if (group.length < 2) continue;
      if (group.length > maxGroup && depth < 6) split(group, depth + 1);
      else out.push([group, []]);
    }
    if (short.length > 0 && depth > 0) out.push([short, members.filter((i) => !short.includes(i))]);
  };
  split(
    tokens.map((_, i) => i),
    0,
  );
  return out;
}

/** Per name, the longest leading-token prefix it shares with at least one other name (`null` when none). */
export function buildFamilyPrefixes(tokens: readonly (readonly string[])[]): (string | null)[] {
  const counts = new Map<string, number>();
  for (const t of tokens) {
    for (let k = 1; k <= t.length; k++) {
      const prefix = t.slice(0, k).join('-');
      counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
    }
  }
  return tokens.map((t) => {
    for (let k = t.length; k >= 1; k--) {
      const prefix = t.slice(0, k).join('-');
      if ((counts.get(prefix) ?? 0) >= 2) return prefix;
    }
    return null;
  });
}
