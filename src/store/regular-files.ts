import { readdirSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { lstatIfAny } from './fs-probe.js';

export interface RegularFiles {
  /** Relative POSIX path → its stat, sorted by path. */
  files: Map<string, Stats>;
  /** Files seen; stops one past `maxFiles`, so "over the limit" is known without walking everything. */
  count: number;
  bytes: number;
}

/**
 * The regular files under `dir`: links are left out (what they point at can
 * change, or lie outside), and so is anything past `maxDepth` (counted as over).
 */
export function listRegularFiles(dir: string, limits: { maxFiles: number; maxDepth: number }): RegularFiles {
  const walked: RegularFiles = { files: new Map(), count: 0, bytes: 0 };
  const walk = (folder: string, prefix: string, depth: number): void => {
    if (depth > limits.maxDepth) {
      walked.count = limits.maxFiles + 1;
      return;
    }
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (walked.count > limits.maxFiles) return;
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        walk(join(folder, entry.name), rel, depth + 1);
        continue;
      }
      if (!entry.isFile()) continue;
      const stat = lstatIfAny(join(folder, entry.name));
      if (!stat?.isFile()) continue;
      walked.count += 1;
      walked.bytes += stat.size;
      walked.files.set(rel, stat);
    }
  };
  walk(dir, '', 0);
  return walked;
}
