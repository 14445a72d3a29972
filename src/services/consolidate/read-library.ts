import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import type { Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import { isPinnedInFile, parsePins, pinsFile } from '../../core/layout/pins.js';
import { resolveProvenance } from '../../core/lifecycle/index.js';
import type { CuratedSkill, Provenance, ReferenceFile, SkillFile } from '../../core/consolidate/types.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { libraryRoots, openLibrary } from '../../store/layout/discover-library.js';
import { requireConfig } from '../config-file.js';
import { readProvenanceFiles } from '../../store/provenance-files.js';

export interface ReadLibraryOptions {
  /** The `skills_dir` setting (a folder, a glob or a list); default: the repository's, detected when unset. */
  skillsDir?: string | readonly string[];
  /** Provenance by skill name; default: `resolveProvenance` over the provenance files and history (DESIGN §4). */
  provenance?: (name: string) => Provenance | undefined;
  /** Names never touched (config `protected`). */
  protectedNames?: readonly string[];
  /** Globs (repository-relative) of files whose mentions of skill names count as references. */
  referenceGlobs?: readonly string[];
}

export interface Library {
  skills: CuratedSkill[];
  references: ReferenceFile[];
  archiveDirs: string[];
  /** Every skill root of the one discovery, sorted. */
  roots: string[];
  /** The root each skill lies in, by name: a plan keeps its umbrella and archives there. */
  rootOf: ReadonlyMap<string, string>;
  /** Problems with the provenance files (a broken `hub.json`): its skills count as a person's until it is fixed. */
  findings: Finding[];
}

function listFilesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFilesUnder(join(dir, entry.name), rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out.sort();
}

/**
 * Every skill of the library's one discovery (all roots, archives beside each
 * root) with its whole package and what may be done to it, and the reference files.
 */
export async function readLibrary(repoDir: string, options: ReadLibraryOptions = {}): Promise<Library> {
  const library = openLibrary(repoDir, options.skillsDir ?? requireConfig(repoDir).skills_dir);
  const roots = libraryRoots(library.layout);
  const files = readProvenanceFiles(repoDir, roots);
  const history = existsSync(join(repoDir, '.git')) ? (await readHistoryIndex(repoDir, { skillsRoot: roots })).index : undefined;
  const resolve = (name: string) => resolveProvenance(name, files, history?.skills[name]);
  const protectedNames = new Set(options.protectedNames ?? []);
  const pins = parsePins(readOptional(join(repoDir, pinsFile)));
  const skills = library.skills.map((location): CuratedSkill => {
    const text = readFileSync(join(location.dir, skillFileName), 'utf8');
    const files: SkillFile[] = listFilesUnder(location.dir)
      .filter((path) => path !== skillFileName)
      .map((path) => ({ path, content: new Uint8Array(readFileSync(join(location.dir, path))) }));
    // Pinned in .skillgarden/pins.txt or in the file: a pinned skill is never absorbed.
    const pinned = pins.has(location.name) || isPinnedInFile(parseSkill(text, { file: location.path }));
    return {
      name: location.name,
      ...(location.category ? { category: location.category } : {}),
      dir: location.path,
      text,
      files,
      provenance: options.provenance?.(location.name) ?? resolve(location.name).provenance,
      adopted: resolve(location.name).adopted,
      pinned,
      protected: protectedNames.has(location.name),
    };
  });
  return {
    skills,
    references: readReferences(repoDir, options.referenceGlobs ?? []),
    archiveDirs: library.archived.map((l) => l.path),
    roots,
    rootOf: new Map(library.skills.map((l) => [l.name, l.root])),
    findings: files.findings,
  };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function readReferences(repoDir: string, globs: readonly string[]): ReferenceFile[] {
  if (globs.length === 0) return [];
  const match = picomatch([...globs], { dot: true });
  return listFilesUnder(repoDir)
    .filter((path) => !path.startsWith('.git/') && match(path))
    .filter((path) => statSync(join(repoDir, path)).size < 1_000_000)
    .map((path) => ({ path, text: readFileSync(join(repoDir, path), 'utf8') }));
}
