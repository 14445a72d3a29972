/**
 * Consolidation planning speed: `npx tsx bench/consolidate.ts [sizes…]`.
 * Generates libraries of narrow agent-made skills (families of 2–6 notes that
 * share a name prefix and vocabulary) among unrelated skills, then times the
 * pure planner end to end (features, MinHash, LSH, clustering, umbrellas,
 * reference rewriting, guard). Reports throughput and how cost grows with size.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { buildClusters } from '../src/core/consolidate/cluster.js';
import { resolveConsolidationConfig } from '../src/core/consolidate/config.js';
import { buildAllFeatures } from '../src/core/consolidate/features.js';
import { planConsolidation } from '../src/core/consolidate/plan.js';
import type { CuratedSkill, ReferenceFile } from '../src/core/consolidate/types.js';
import { seededRandom } from '../test/helpers/random.js';

const syllables = ['ka', 'lo', 'mi', 're', 'tu', 'sa', 'po', 'ne', 'di', 'va', 'go', 'shi', 'zu', 'fe', 'ri', 'mo'];

function wordList(count: number, rand: () => number): string[] {
  const words = new Set<string>();
  while (words.size < count)
    words.add(Array.from({ length: 2 + Math.floor(rand() * 3) }, () => syllables[Math.floor(rand() * syllables.length)]).join(''));
  return [...words];
}

function skill(name: string, words: string[]): CuratedSkill {
  const description = `Notes on ${words.slice(0, 12).join(' ')}. Use when working on ${name.replace(/-/g, ' ')}.`;
  const body = `# ${name}\n\n${words.slice(12, 60).join(' ')}.\n\n## Steps\n\n${words
    .slice(60)
    .map((w, i) => `${i + 1}. ${w}`)
    .join('\n')}\n`;
  return {
    name,
    dir: `skills/${name}`,
    text: `---\nname: ${name}\ndescription: ${description}\n---\n${body}`,
    files: [{ path: 'references/notes.md', content: `# Notes\n\n${words.slice(0, 20).join(' ')}\n` }],
    provenance: 'agent',
    pinned: false,
  };
}

export function generateCuratedLibrary(count: number, seed = 7): { skills: CuratedSkill[]; references: ReferenceFile[] } {
  const rand = seededRandom(seed);
  const vocabulary = wordList(6000, rand);
  const pick = (pool: readonly string[], n: number) => Array.from({ length: n }, () => pool[Math.floor(rand() * pool.length)] as string);
  const skills: CuratedSkill[] = [];
  for (let family = 0; skills.length < count; family++) {
    const topic = pick(vocabulary, 12);
    if (family % 3 === 2) {
      skills.push(skill(`solo${family}-${topic[0]}`, [...topic, ...pick(vocabulary, 90)]));
      continue;
    }
    // Members of a family are variants of one procedure, as an agent writes them: the same steps
    // in the same order with about a fifth of the words changed. Drawing each member's words at
    // random from the family's topic gave content similarity 0.06–0.14, below the planner's
    // thresholds, so every family was skipped and the bench planned nothing.
    const size = 2 + Math.floor(rand() * 5);
    const procedure = [...topic, ...pick(vocabulary, 88)];
    for (let m = 0; m < size && skills.length < count; m++)
      skills.push(
        skill(
          `fam${family}-${topic[0]}-part${m}`,
          procedure.map((word) => (rand() < 0.2 ? (pick(vocabulary, 1)[0] as string) : word)),
        ),
      );
  }
  const references = Array.from({ length: Math.ceil(count / 100) }, (_, i) => ({
    path: `jobs/job-${i}.yaml`,
    text: `skill: ${skills[(i * 37) % skills.length]?.name}\nschedule: daily\n`,
  }));
  return { skills, references };
}

const mainStat = `/proc/self/task/${process.pid}/stat`;

/**
 * The main thread's CPU time in ms (Linux; 10 ms ticks), or NaN elsewhere. The
 * process's CPU time counts the garbage collector's and compiler's helper
 * threads too, which run beside the main thread on a second core: the main
 * thread's time is what the wall time of a quiet machine follows.
 */
function mainThreadMs(): number {
  if (!existsSync(mainStat)) return Number.NaN;
  const fields = readFileSync(mainStat, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Wall time and this process's CPU time: on a shared machine the CPU time is the steadier figure. */
function time<T>(run: () => T): { ms: number; cpuMs: number; mainMs: number; value: T } {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const main = mainThreadMs();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - start, cpuMs: (used.user + used.system) / 1000, mainMs: mainThreadMs() - main, value };
}

/**
 * Features and clusters timed alone. Only their times are returned: their
 * values (10,000 parses and signatures) held while the whole plan is timed
 * made its garbage collector trace them on every major collection.
 */
function timeStages(skills: readonly CuratedSkill[]): { features: { ms: number }; clusters: { ms: number } } {
  const config = resolveConsolidationConfig();
  const features = time(() => buildAllFeatures(skills, config));
  const clusters = time(() => buildClusters(features.value, config));
  return { features: { ms: features.ms }, clusters: { ms: clusters.ms } };
}

if (process.argv[1]?.endsWith('consolidate.ts')) main();
function main(): void {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const rows: Array<{ n: number; ms: number }> = [];
  const now = new Date('2026-11-30T00:00:00Z');
  time(() => planConsolidation({ ...generateCuratedLibrary(300, 1), now })); // warm up the JIT
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const n of sizes.length > 0 ? sizes : [1000, 5000, 10000]) {
    const library = generateCuratedLibrary(n);
    const { features, clusters } = timeStages(library.skills);
    const full = time(() => planConsolidation({ ...library, now }));
    rows.push({ n, ms: full.cpuMs });
    const r = full.value;
    console.log(
      `${String(n).padStart(6)} skills: plan ${full.ms.toFixed(0).padStart(6)} ms wall, ${full.cpuMs.toFixed(0).padStart(6)} ms CPU, main thread ${full.mainMs.toFixed(0)} ms (${((n / full.cpuMs) * 1000).toFixed(0)} skills per CPU-second) · features ${features.ms.toFixed(0)} ms · clusters ${clusters.ms.toFixed(0)} ms · ` +
        `${r.clusters.length} clusters, ${r.plans.length} plans, ${r.dropped.length} dropped, ${r.skipped.length} skipped`,
    );
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1] as { n: number; ms: number };
    const b = rows[i] as { n: number; ms: number };
    console.log(
      `growth ${a.n} → ${b.n}: CPU time ×${(b.ms / a.ms).toFixed(2)} for size ×${(b.n / a.n).toFixed(1)} (exponent ${(Math.log(b.ms / a.ms) / Math.log(b.n / a.n)).toFixed(2)}; 1 = linear, 2 = quadratic)`,
    );
  }
}
