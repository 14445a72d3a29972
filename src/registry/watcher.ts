import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { skillFileName } from '../core/layout.js';

/** Past this many changed files a full check (one stat per skill) is as cheap as a targeted one. */
const maxHintedFiles = 1_000;

export interface WatchOptions {
  /** Quiet time before a refresh (default 300 ms): a burst of events becomes one refresh. */
  debounceMs?: number;
  /** A refresh happens at least this often during an endless stream of events (default 2 s). */
  maxWaitMs?: number;
  onError?: (error: unknown) => void;
}

export interface SkillWatcher {
  close(): void;
  /** Resolves when no refresh is pending or running: for tests and orderly shutdown. */
  idle(): Promise<void>;
}

/**
 * Watches a skills root (recursive fs.watch: Linux with Node 20+, macOS,
 * Windows) and calls `refresh` after SKILL.md changes, debounced. Folder
 * renames near the top (an archive, a restore, a new skill folder) count too:
 * they move SKILL.md files without an event naming them.
 */
export function watchSkills(
  root: string,
  refresh: (changedFiles: string[] | undefined) => Promise<unknown>,
  options: WatchOptions = {},
): SkillWatcher {
  const debounceMs = options.debounceMs ?? 300;
  const maxWaitMs = options.maxWaitMs ?? 2_000;
  let timer: NodeJS.Timeout | undefined;
  let firstEventAt: number | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  // SKILL.md paths seen since the last refresh; undefined once something else (a folder move) means "check everything".
  let changed: Set<string> | undefined = new Set();

  const run = (): void => {
    timer = undefined;
    firstEventAt = undefined;
    if (running) {
      again = true;
      return;
    }
    const files = changed && changed.size <= maxHintedFiles ? [...changed] : undefined;
    changed = new Set();
    running = refresh(files)
      .then(() => undefined, options.onError ?? (() => undefined))
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          run();
        }
      });
  };

  const onEvent = (eventType: string, filename: string | Buffer | null): void => {
    const name = filename === null ? null : String(filename);
    if (closed || !isRelevant(eventType, name)) return;
    if (name !== null && name.split(/[\\/]/).at(-1) === skillFileName) changed?.add(join(root, name));
    else changed = undefined;
    const now = Date.now();
    firstEventAt ??= now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now)));
  };

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(root, { recursive: true }, onEvent);
    watcher.on('error', (error) => options.onError?.(error));
  } catch (error) {
    // No skills folder yet: nothing to watch. Explicit refreshes (after a write) still see new skills.
    options.onError?.(error);
  }

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      watcher?.close();
      watcher = undefined;
    },
    async idle() {
      while (timer || running) await (running ?? new Promise((r) => setTimeout(r, debounceMs)));
    },
  };
}

/** SKILL.md changes, and renames of folders at the depth of skills and categories. */
export function isRelevant(eventType: string, filename: string | null): boolean {
  // Some platforms omit the name: refresh, since the refresh itself is cheap when nothing changed.
  if (filename === null) return true;
  const parts = filename.split(/[\\/]/);
  const base = parts.at(-1) ?? '';
  if (base === skillFileName) return true;
  return eventType === 'rename' && parts.length <= 3 && !base.includes('.', 1);
}
