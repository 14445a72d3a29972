import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** How the reference validator is reached: its Python source, an installed command, or not at all. */
export type Reference =
  { kind: 'python-source'; pythonPath: string; python: string } | { kind: 'command'; argv: string[] } | { kind: 'missing'; reason: string };

export interface ReferenceVerdict {
  dir: string;
  errors: string[];
  ms: number;
}

export interface ReferenceRun {
  verdicts: ReferenceVerdict[];
  /** Wall time of the whole run, process start included. */
  wallMs: number;
  /** Interpreter start plus `import skills_ref`, when measured. */
  startMs?: number;
}

/** Interprets SKILLS_REF: a folder holding `skills_ref/validator.py` (or its `src/`), else a command. */
export function resolveReference(env: NodeJS.ProcessEnv): Reference {
  const value = env.SKILLS_REF?.trim();
  if (!value) return { kind: 'missing', reason: 'SKILLS_REF is not set' };
  const python = env.SKILLS_REF_PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  const asPath = resolve(value);
  if (existsSync(asPath) && statSync(asPath).isDirectory()) {
    const source = [asPath, join(asPath, 'src'), join(asPath, 'skills-ref', 'src')].find((dir) =>
      existsSync(join(dir, 'skills_ref', 'validator.py')),
    );
    if (!source) return { kind: 'missing', reason: `${value} holds no skills_ref/validator.py (nor src/skills_ref/…)` };
    const probe = spawnSync(python, ['-c', 'import skills_ref.validator'], { env: pythonEnv(source), encoding: 'utf8' });
    if (probe.status !== 0) {
      const last = (probe.stderr || String(probe.error ?? '')).trim().split('\n').pop() ?? '';
      return { kind: 'missing', reason: `${python} cannot import skills_ref from ${source}: ${last}` };
    }
    return { kind: 'python-source', pythonPath: source, python };
  }
  const argv = value.split(/\s+/);
  const probe = spawnSync(argv[0] ?? '', [...argv.slice(1), '--help'], { encoding: 'utf8' });
  if (probe.status !== 0) return { kind: 'missing', reason: `"${value}" is neither a source folder nor a runnable command` };
  return { kind: 'command', argv };
}

function pythonEnv(pythonPath: string): NodeJS.ProcessEnv {
  return { ...process.env, PYTHONPATH: pythonPath, PYTHONDONTWRITEBYTECODE: '1' };
}

// One interpreter validates every folder named on stdin, so process start is paid once.
const driver = `
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from skills_ref.validator import validate
import_ms = (time.perf_counter() - t0) * 1000
results = []
for d in json.load(sys.stdin):
    s = time.perf_counter()
    try:
        errors = [str(e) for e in validate(Path(d))]
    except Exception as e:  # validate() lets some errors through (e.g. undecodable bytes)
        errors = ["crash: %s: %s" % (type(e).__name__, e)]
    results.append({"dir": d, "errors": errors, "ms": (time.perf_counter() - s) * 1000})
json.dump({"import_ms": import_ms, "results": results}, sys.stdout)
`;

/** Runs the reference over `dirs`: in one Python process from source, else one process per skill. */
export function runReference(reference: Reference, dirs: readonly string[]): ReferenceRun {
  if (reference.kind === 'python-source') return runPythonDriver(reference, dirs);
  if (reference.kind === 'command') return runCommandPerSkill(reference.argv, dirs);
  throw new Error(`reference validator unavailable: ${reference.reason}`);
}

function runPythonDriver(reference: Extract<Reference, { kind: 'python-source' }>, dirs: readonly string[]): ReferenceRun {
  const started = performance.now();
  const result = spawnSync(reference.python, ['-c', driver], {
    env: pythonEnv(reference.pythonPath),
    input: JSON.stringify(dirs),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const wallMs = performance.now() - started;
  if (result.status !== 0) throw new Error(`skills-ref driver failed (exit ${result.status}): ${result.stderr.slice(-2000)}`);
  const parsed = JSON.parse(result.stdout) as { import_ms: number; results: ReferenceVerdict[] };
  const validateMs = parsed.results.reduce((sum, r) => sum + r.ms, 0);
  return { verdicts: parsed.results, wallMs, startMs: wallMs - validateMs };
}

function runCommandPerSkill(argv: readonly string[], dirs: readonly string[]): ReferenceRun {
  const started = performance.now();
  const verdicts = dirs.map((dir) => {
    const t = performance.now();
    const result = spawnSync(argv[0] ?? '', [...argv.slice(1), 'validate', dir], { encoding: 'utf8' });
    const errors =
      result.status === 0
        ? []
        : result.stderr
            .split('\n')
            .filter((line) => line.startsWith('  - '))
            .map((line) => line.slice(4));
    if (result.status !== 0 && errors.length === 0) errors.push(result.stderr.trim() || `exit ${result.status}`);
    return { dir, errors, ms: performance.now() - t };
  });
  return { verdicts, wallMs: performance.now() - started };
}

/** Mean cost of one `skills-ref validate DIR` process (start, imports, one skill) over a sample. */
export function measureProcessPerSkill(reference: Reference, sample: readonly string[]): number | undefined {
  if (reference.kind === 'missing' || sample.length === 0) return undefined;
  const run = (dir: string) =>
    reference.kind === 'python-source'
      ? spawnSync(reference.python, ['-m', 'skills_ref.cli', 'validate', dir], { env: pythonEnv(reference.pythonPath) })
      : spawnSync(reference.argv[0] ?? '', [...reference.argv.slice(1), 'validate', dir]);
  const probe = run(sample[0] ?? '');
  // Status 0 or 1 are verdicts; anything else (e.g. click missing) means the CLI cannot run here.
  if (probe.status !== 0 && probe.status !== 1) return undefined;
  const started = performance.now();
  for (const dir of sample) run(dir);
  return (performance.now() - started) / sample.length;
}
