/** A slow, obviously-correct reference of DESIGN §7 mining, for comparing against the fast miner. */
export function referenceCandidates(sessions: readonly (readonly string[])[], minSessions: number, collapse = true): Map<string, number> {
  const seen = new Map<string, Set<number>>();
  sessions.forEach((raw, s) => {
    const tokens = collapse ? raw.filter((t, i) => i === 0 || raw[i - 1] !== t) : [...raw];
    for (let length = 2; length <= 8; length += 1) {
      for (let i = 0; i + length <= tokens.length; i += 1) {
        const key = tokens.slice(i, i + length).join('>');
        if (!seen.has(key)) seen.set(key, new Set());
        seen.get(key)?.add(s);
      }
    }
  });
  const candidates = [...seen].filter(([, set]) => set.size >= minSessions);
  const sameSet = (a: Set<number>, b: Set<number>) => a.size === b.size && [...a].every((x) => b.has(x));
  const kept = new Map<string, number>();
  for (const [key, set] of candidates) {
    const tokens = key.split('>');
    const absorbed = candidates.some(([other, otherSet]) => {
      const longer = other.split('>');
      if (longer.length <= tokens.length || !sameSet(set, otherSet)) return false;
      for (let i = 0; i + tokens.length <= longer.length; i += 1) {
        if (longer.slice(i, i + tokens.length).join('>') === key) return true;
      }
      return false;
    });
    if (!absorbed) kept.set(key, set.size);
  }
  return kept;
}

/** Sessions (by index) in which `pattern` occurs contiguously, after collapsing runs. */
export function countSessions(sessions: readonly (readonly string[])[], pattern: readonly string[]): number {
  const needle = pattern.join('\u0000');
  return sessions.filter((raw) => {
    const tokens = raw.filter((t, i) => i === 0 || raw[i - 1] !== t);
    for (let i = 0; i + pattern.length <= tokens.length; i += 1) {
      if (tokens.slice(i, i + pattern.length).join('\u0000') === needle) return true;
    }
    return false;
  }).length;
}
