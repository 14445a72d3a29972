import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import picomatch from 'picomatch';
import type { Finding } from '../../core/findings.js';
import { archiveDirName, skillFileName } from '../../core/layout.js';
import { resolveProvenance } from '../../core/lifecycle/index.js';
import type { CuratedSkill, Provenance, ReferenceFile, SkillFile } from '../../core/consolidate/types.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { discoverSkills } from '../../store/discover.js';
import { readProvenanceFiles } from '../../store/provenance-files.js';

export interface ReadLibraryOptions {
  skillsDir?: string;
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

/** Every skill of the working tree with its whole package and what may be done to it, and the reference files. */
export async function readLibrary(repoDir: string, options: ReadLibraryOptions = {}): Promise<Library> {
  const skillsDir = options.skillsDir ?? 'skills';
  const root = join(repoDir, skillsDir);
  const files = readProvenanceFiles(repoDir, skillsDir);
  const history = existsSync(join(repoDir, '.git')) ? (await readHistoryIndex(repoDir, { skillsRoot: skillsDir })).index : undefined;
  const resolve = (name: string) => resolveProvenance(name, files, history?.skills[name]);
  const protectedNames = new Set(options.protectedNames ?? []);
  const skills: CuratedSkill[] = existsSync(root)
    ? discoverSkills(root).map((location) => {
        const text = readFileSync(join(location.dir, skillFileName), 'utf8');
        const files: SkillFile[] = listFilesUnder(location.dir)
          .filter((path) => path !== skillFileName)
          .map((path) => ({ path, content: new Uint8Array(readFileSync(join(location.dir, path))) }));
        const pinned = parseSkill(text, { file: location.relativeDir }).fields.pinned === true;
        return {
          name: location.name,
          ...(location.category ? { category: location.category } : {}),
          dir: posix.join(skillsDir, location.relativeDir),
          text,
          files,
          provenance: options.provenance?.(location.name) ?? resolve(location.name).provenance,
          adopted: resolve(location.name).adopted,
          pinned,
          protected: protectedNames.has(location.name),
        };
      })
    : [];
  const archiveRoot = join(root, archiveDirName);
  const archiveDirs = existsSync(archiveRoot)
    ? discoverSkills(archiveRoot).map((l) => posix.join(skillsDir, archiveDirName, l.relativeDir))
    : [];
  return { skills, references: readReferences(repoDir, options.referenceGlobs ?? []), archiveDirs, findings: files.findings };
}

function readReferences(repoDir: string, globs: readonly string[]): ReferenceFile[] {
  if (globs.length === 0) return [];
  const match = picomatch([...globs], { dot: true });
  return listFilesUnder(repoDir)
    .filter((path) => !path.startsWith('.git/') && match(path))
    .filter((path) => statSync(join(repoDir, path)).size < 1_000_000)
    .map((path) => ({ path, text: readFileSync(join(repoDir, path), 'utf8') }));
}
