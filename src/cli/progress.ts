import type { CliIo } from './context.js';

/** A progress line on a terminal, redrawn at most every 100 ms; silent when nobody watches. */
export function createProgress(
  io: CliIo,
  label: string,
  enabled: boolean,
): { update: (done: number, total: number) => void; done: () => void } {
  if (!enabled || !io.interactive) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = performance.now();
      if (now - last < 100 && done < total) return;
      last = now;
      drawn = true;
      io.stderr.write(`\r${label} ${done}/${total}`);
    },
    done() {
      if (drawn) io.stderr.write('\r\x1b[K');
    },
  };
}
