import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../core/findings.js';
import { metaDir } from '../core/layout.js';
import { lockFileName } from '../core/vendor/lock.js';

export interface ProvenanceFiles {
  bundled: Set<string>;
  hub: Set<string>;
  adopted: Set<string>;
  findings: Finding[];
}

/**
 * Provenance kept in files (DESIGN §4): `.skillgarden/bundled.txt`,
 * `.skillgarden/hub.json`, `.skillgarden/adopted.txt`, and Hermes Agent's
 * `<root>/.bundled_manifest` and `<root>/.hub/lock.json` of each skill root; the skills of
 * `skills-lock.json` (vendored: `skillgarden add`) are hub skills too.
 */
export function readProvenanceFiles(repoDir: string, skillsDir: string | readonly string[]): ProvenanceFiles {
  const out: ProvenanceFiles = { bundled: new Set(), hub: new Set(), adopted: new Set(), findings: [] };
  const roots = (typeof skillsDir === 'string' ? [skillsDir] : skillsDir).map((root) => (root === '' ? '' : `${root}/`));
  for (const name of readLines(repoDir, `${metaDir}/bundled.txt`)) out.bundled.add(name);
  for (const root of roots)
    for (const name of readLines(repoDir, `${root}.bundled_manifest`)) out.bundled.add(name.split(/[:\s]/)[0] ?? name);
  for (const name of readLines(repoDir, `${metaDir}/adopted.txt`)) out.adopted.add(name);
  for (const path of [`${metaDir}/hub.json`, lockFileName, ...roots.map((root) => `${root}.hub/lock.json`)]) {
    for (const name of readJsonKeys(repoDir, path, out.findings)) out.hub.add(name);
  }
  return out;
}

function read(repoDir: string, path: string): string | undefined {
  try {
    return readFileSync(join(repoDir, path), 'utf8');
  } catch {
    return undefined;
  }
}

function readLines(repoDir: string, path: string): string[] {
  return (read(repoDir, path) ?? '')
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

/** The skill names of a hub file: its keys, or the keys of `skills` / `installed` inside it. */
function readJsonKeys(repoDir: string, path: string, findings: Finding[]): string[] {
  const text = read(repoDir, path);
  if (text === undefined) return [];
  try {
    const data = JSON.parse(text) as Record<string, unknown>;
    const inner = data.skills ?? data.installed;
    const map = inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : data;
    if (Array.isArray(inner))
      return inner.flatMap((e) =>
        typeof e === 'string' ? [e] : typeof (e as { name?: unknown }).name === 'string' ? [(e as { name: string }).name] : [],
      );
    return Object.keys(map).filter((k) => k !== 'version');
  } catch (error) {
    findings.push({
      code: 'provenance/bad-file',
      severity: 'error',
      file: path,
      line: 0,
      column: 0,
      message: `not JSON: ${(error as Error).message}`,
      hint: 'Skills it lists are treated as a person’s (never curated) until it is fixed.',
    });
    return [];
  }
}
