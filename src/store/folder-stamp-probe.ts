import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { cacheFilePath, readCacheFile, writeCacheFile } from './cache-file.js';

/**
 * Whether this file system moves a folder's stat when an entry is added,
 * removed or renamed, and a file's when it is written: what the kept folder
 * listings (dir-cache.ts) and the kept report (validate-memo.ts) rely on to
 * know nothing changed. Local Linux and macOS file systems do; some FUSE and
 * network mounts do not. Git trusts its untracked cache only after
 * `git update-index --test-untracked-cache` passes; this is that test, run
 * once per repository and kept in `.git/skillgarden/folder-stamps.json`.
 *
 * It runs in the background while the run works (a wait between steps: a
 * file system's clock ticks every few milliseconds, so two steps in one tick
 * would look alike); a run about to keep something waits out what is left.
 */
export const folderStampsFileName = 'folder-stamps.json';

const probeVersion = 1;

/** Wait before each step; a step that shows no change is tried once more after the coarse clocks' tick (2 s on FAT, 1 s on HFS+). */
const stepWaitMs = 12;
const coarseWaitMs = 2_100;

/** A probe folder older than this was left by a process that stopped mid-probe. */
const leftoverMs = 60_000;

export interface FolderStampProbe {
  /** true: stats can be trusted; false: they cannot (nothing is kept); undefined: not known yet. */
  verdict(): boolean | undefined;
  /**
   * The verdict, the probe's remaining steps run now if it has not answered
   * (a pass that never let a timer run): what a run about to keep listings asks.
   */
  settle(): boolean;
}

interface Kept {
  version: number;
  dev: number;
  trusted: boolean;
}

const running = new Map<string, FolderStampProbe>();

/**
 * The probe of the repository whose worktree is `dir` and git folder
 * `gitdir`: the kept verdict, or one started now (once per process).
 * `start: false` (a worker thread, which keeps nothing itself) only reads a
 * kept verdict.
 */
export function folderStampProbe(dir: string, gitdir: string, start = true): FolderStampProbe {
  const key = resolve(gitdir);
  const known = running.get(key);
  if (known) return known;
  const probe = openProbe(dir, key, start);
  if (start) running.set(key, probe);
  return probe;
}

function openProbe(dir: string, gitdir: string, start: boolean): FolderStampProbe {
  const file = cacheFilePath(gitdir, folderStampsFileName);
  const home = cacheFilePath(gitdir, '');
  let dev: number;
  try {
    dev = statSync(dir).dev;
  } catch {
    return { verdict: () => false, settle: () => false };
  }
  const kept = readCacheFile(file) as Partial<Kept> | undefined;
  if (kept?.version === probeVersion && kept.dev === dev && typeof kept.trusted === 'boolean') {
    const trusted = kept.trusted;
    return { verdict: () => trusted, settle: () => trusted };
  }
  if (!start) return { verdict: () => undefined, settle: () => false };
  let verdict: boolean | undefined;
  const decide = (trusted: boolean) => {
    verdict = trusted;
    writeCacheFile(file, { version: probeVersion, dev, trusted } satisfies Kept);
  };
  const clock = new StepClock();
  try {
    mkdirSync(home, { recursive: true });
    removeLeftovers(home);
    // The probe can only speak for the worktree's file system if it runs on it: a git folder on another mount says nothing.
    if (statSync(home).dev !== dev) decide(false);
    else runSteps(mkdtempSync(join(home, 'stamp-probe-')), decide, clock);
  } catch {
    // Nowhere to probe (a read-only git folder): nothing is kept either, and nothing is written.
    verdict = false;
  }
  return {
    verdict: () => verdict,
    settle() {
      clock.runAll();
      return verdict ?? false;
    },
  };
}

/**
 * The probe's waits: timers that do not keep the process alive, or, when a
 * run needs the answer now, slept through in turn (each step schedules the next).
 */
class StepClock {
  private pending: { due: number; run: () => void; timer: NodeJS.Timeout } | undefined;

  later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.pending = undefined;
      run();
    }, ms).unref();
    this.pending = { due: Date.now() + ms, run, timer };
  }

  runAll(): void {
    for (let next = this.pending; next; next = this.pending) {
      clearTimeout(next.timer);
      this.pending = undefined;
      const wait = next.due - Date.now();
      if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait);
      next.run();
    }
  }
}

interface Step {
  /** What the step's change must show on (the folder, or the file written). */
  path: (n: number) => string;
  /** Made first, a tick before the change, so that only the change falls between the two stats. */
  prepare?: (n: number) => void;
  /** The change; `n` is the attempt, so a second attempt works on entries of its own. */
  act: (n: number) => void;
}

/** Each step changes the folder, or a file in it, in a way a later run must notice. */
function steps(folder: string): Step[] {
  const at = (name: string, n: number) => join(folder, `${name}${n}`);
  const inFolder = () => folder;
  return [
    { path: inFolder, act: (n) => writeFileSync(at('f', n), 'a') },
    { path: (n) => at('w', n), prepare: (n) => writeFileSync(at('w', n), 'a'), act: (n) => writeFileSync(at('w', n), 'b') },
    { path: inFolder, act: (n) => mkdirSync(at('d', n)) },
    { path: inFolder, prepare: (n) => mkdirSync(at('r', n)), act: (n) => renameSync(at('r', n), at('e', n)) },
    { path: inFolder, prepare: (n) => mkdirSync(at('q', n)), act: (n) => rmdirSync(at('q', n)) },
    { path: inFolder, prepare: (n) => writeFileSync(at('u', n), 'a'), act: (n) => unlinkSync(at('u', n)) },
  ];
}

function runSteps(folder: string, settle: (trusted: boolean) => void, clock: StepClock): void {
  const plan = steps(folder);
  unfinished(folder, true);
  const finish = (trusted: boolean) => {
    unfinished(folder, false);
    rmSync(folder, { recursive: true, force: true });
    settle(trusted);
  };
  const step = (index: number, attempt: number) => {
    if (index === plan.length) return finish(true);
    const { path, prepare, act } = plan[index]!;
    try {
      prepare?.(attempt);
    } catch {
      return finish(false);
    }
    // No change on the first attempt means the same clock tick, or a file system that does not move it: a coarse
    // clock's tick (the second attempt waits it out) tells them apart.
    clock.later(attempt === 0 ? stepWaitMs : coarseWaitMs, () => {
      let changed: boolean;
      try {
        const before = stamp(path(attempt));
        act(attempt);
        changed = stamp(path(attempt)) !== before;
      } catch {
        return finish(false);
      }
      if (changed) step(index + 1, 0);
      else if (attempt === 0) step(index, 1);
      else finish(false);
    });
  };
  step(0, 0);
}

/** Probe folders not yet removed: a process that ends before its probes do (a short run, an error) takes them with it. */
const pending = new Set<string>();
let exitHook = false;

function unfinished(folder: string, running: boolean): void {
  if (!running) {
    pending.delete(folder);
    return;
  }
  pending.add(folder);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => pending.forEach((f) => rmSync(f, { recursive: true, force: true })));
}

function stamp(path: string): string {
  const s = lstatSync(path);
  return `${s.mtimeMs}:${s.ctimeMs}:${s.ino}:${s.size}`;
}

function removeLeftovers(home: string): void {
  for (const name of readdirSync(home)) {
    if (!name.startsWith('stamp-probe-')) continue;
    const path = join(home, name);
    try {
      if (Date.now() - lstatSync(path).mtimeMs > leftoverMs) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another process removed it.
    }
  }
}
