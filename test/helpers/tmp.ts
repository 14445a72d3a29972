import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

const made: string[] = [];

/** A fresh temporary folder, removed after the test. */
export function tempDir(prefix = 'skillgarden-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Writes files (path → content) under `root`, creating folders. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

export function skillText(name: string, extra = '', body = `# ${name}\n\nSteps.\n`): string {
  return `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is needed.\n${extra}---\n${body}`;
}

/**
 * Every path below `root` but its `.git` dated a minute back: a library
 * committed a while ago, outside the racy window of the kept listings and
 * the kept report.
 */
export function ageTree(root: string): void {
  const old = new Date(Date.now() - 60_000);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' && dir === root) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      if (!entry.isSymbolicLink()) utimesSync(path, old, old);
    }
  };
  walk(root);
  utimesSync(root, old, old);
}
