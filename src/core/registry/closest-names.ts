/** Names within a small edit distance or sharing a prefix: the ones a caller most likely meant. */
export function findClosestNames(name: string, names: Iterable<string>, count = 3): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { candidate: string; distance: number }[] = [];
  for (const candidate of names) {
    const lower = candidate.toLowerCase();
    const related = lower.startsWith(wanted) || wanted.startsWith(lower) || lower.includes(wanted);
    // The length gap bounds the distance from below: skip the quadratic work when it cannot qualify.
    if (!related && Math.abs(lower.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, lower);
    if (distance <= limit || related) scored.push({ candidate, distance });
  }
  return scored
    .sort((a, b) => a.distance - b.distance || (a.candidate < b.candidate ? -1 : a.candidate > b.candidate ? 1 : 0))
    .slice(0, count)
    .map((s) => s.candidate);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
