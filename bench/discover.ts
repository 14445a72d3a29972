/**
 * The one discovery (`openLibrary`) over a marketplace layout: 100 plugins,
 * each with `.claude-plugin/plugin.json` and `skills/<name>/SKILL.md`, listed
 * in `.claude-plugin/marketplace.json` and detected with no configuration;
 * then the same tree through a `plugins/*\/skills` glob. Reports the median
 * and range of several passes, cold (fresh listings each pass).
 * Target: 10,000 skills across 100 plugin roots under 200 ms.
 * Run: `npx tsx bench/discover.ts [plugins] [skills-per-plugin]`.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLibrary } from '../src/store/layout/discover-library.js';

const plugins = Number(process.argv[2] ?? 100);
const perPlugin = Number(process.argv[3] ?? 100);
const runs = 11;

function generate(dir: string): void {
  const entries: { name: string; source: string }[] = [];
  for (let p = 0; p < plugins; p++) {
    const plugin = `plugin-${p}`;
    const root = join(dir, 'plugins', plugin);
    mkdirSync(join(root, '.claude-plugin'), { recursive: true });
    writeFileSync(join(root, '.claude-plugin/plugin.json'), JSON.stringify({ name: plugin, version: '1.0.0' }));
    for (let s = 0; s < perPlugin; s++) {
      const name = `p${p}-skill-${s}`;
      mkdirSync(join(root, 'skills', name), { recursive: true });
      writeFileSync(join(root, 'skills', name, 'SKILL.md'), `---\nname: ${name}\ndescription: Skill ${s} of ${plugin}.\n---\n\nBody.\n`);
    }
    entries.push({ name: plugin, source: `./plugins/${plugin}` });
  }
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  writeFileSync(
    join(dir, '.claude-plugin/marketplace.json'),
    JSON.stringify({ name: 'bench', owner: { name: 'b' }, plugins: entries }, null, 2),
  );
}

interface Pass {
  wall: number;
  cpu: number;
}

function timePass(fn: () => void): Pass {
  const cpu = process.cpuUsage();
  const start = performance.now();
  fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

function describe(passes: readonly Pass[]): string {
  const stat = (values: number[]) => {
    values.sort((a, b) => a - b);
    return `median ${(values[Math.floor(values.length / 2)] ?? 0).toFixed(1)} ms (range ${values[0]?.toFixed(1)}–${values.at(-1)?.toFixed(1)})`;
  };
  return `wall ${stat(passes.map((p) => p.wall))}, CPU ${stat(passes.map((p) => p.cpu))}`;
}

function measure(label: string, dir: string, skillsDir: string | undefined): void {
  const passes: Pass[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    passes.push(
      timePass(() => {
        const library = openLibrary(dir, skillsDir);
        count = library.skills.length;
        if (library.findings.length > 0) throw new Error(`${label}: unexpected findings ${JSON.stringify(library.findings[0])}`);
      }),
    );
  }
  console.log(`${label}: ${count} skills in ${plugins} roots — ${describe(passes)} over ${runs} passes`);
}

/** The floor: one lstat per SKILL.md, what any discovery must at least pay. */
function floor(dir: string): void {
  const passes: Pass[] = [];
  for (let i = 0; i < runs; i++) {
    passes.push(
      timePass(() => {
        for (const plugin of readdirSync(join(dir, 'plugins'))) {
          for (const skill of readdirSync(join(dir, 'plugins', plugin, 'skills')))
            lstatSync(join(dir, 'plugins', plugin, 'skills', skill, 'SKILL.md'));
        }
      }),
    );
  }
  console.log(`floor (readdir of each root + one lstat per skill): ${describe(passes)}`);
}

const dir = mkdtempSync(join(tmpdir(), 'skillgarden-discover-'));
try {
  generate(dir);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')} on ${cpus().length} cores`,
  );
  floor(dir);
  measure('detected (marketplace + plugin.json)', dir, undefined);
  measure('configured glob plugins/*/skills', dir, 'plugins/*/skills');
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
