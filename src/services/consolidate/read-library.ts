import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import picomatch from 'picomatch';
import { archiveDirName, metaDir, skillFileName } from '../../core/layout.js';
import type { CuratedSkill, Provenance, ReferenceFile, SkillFile } from '../../core/consolidate/types.js';
import { parseSkill } from '../../core/skill/index.js';
import { readHistoryIndex } from '../../ledger/history-index.js';
import { discoverSkills } from '../../store/discover.js';

export interface ReadLibraryOptions {
  skillsDir?: string;
  /** Provenance by skill name; default: from history (DESIGN §4), `bundled.txt`, `hub.json` and `adopted.txt`. */
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

function readLines(path: string): Set<string> {
  return existsSync(path)
    ? new Set(
        readFileSync(path, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean),
      )
    : new Set();
}

function readHubNames(path: string): Set<string> {
  if (!existsSync(path)) return new Set();
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return new Set(data && typeof data === 'object' ? Object.keys(data) : []);
  } catch {
    return new Set();
  }
}

/** Every skill of the working tree with its whole package and what may be done to it, and the reference files. */
export async function readLibrary(repoDir: string, options: ReadLibraryOptions = {}): Promise<Library> {
  const skillsDir = options.skillsDir ?? 'skills';
  const root = join(repoDir, skillsDir);
  const provenance = options.provenance ?? (await readProvenance(repoDir, skillsDir));
  const adopted = readLines(join(repoDir, metaDir, 'adopted.txt'));
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
          provenance: provenance(location.name) ?? 'user',
          adopted: adopted.has(location.name),
          pinned,
          protected: protectedNames.has(location.name),
        };
      })
    : [];
  const archiveRoot = join(root, archiveDirName);
  const archiveDirs = existsSync(archiveRoot)
    ? discoverSkills(archiveRoot).map((l) => posix.join(skillsDir, archiveDirName, l.relativeDir))
    : [];
  return { skills, references: readReferences(repoDir, options.referenceGlobs ?? []), archiveDirs };
}

function readReferences(repoDir: string, globs: readonly string[]): ReferenceFile[] {
  if (globs.length === 0) return [];
  const match = picomatch([...globs], { dot: true });
  return listFilesUnder(repoDir)
    .filter((path) => !path.startsWith('.git/') && match(path))
    .filter((path) => statSync(join(repoDir, path)).size < 1_000_000)
    .map((path) => ({ path, text: readFileSync(join(repoDir, path), 'utf8') }));
}

/** DESIGN §4: bundled and hub lists first, then history (agent + background creation), else a person's. */
async function readProvenance(repoDir: string, skillsDir: string): Promise<(name: string) => Provenance | undefined> {
  const bundled = readLines(join(repoDir, metaDir, 'bundled.txt'));
  const hub = readHubNames(join(repoDir, metaDir, 'hub.json'));
  const history = existsSync(join(repoDir, '.git')) ? (await readHistoryIndex(repoDir, { skillsRoot: skillsDir })).index : undefined;
  return (name) => {
    if (bundled.has(name)) return 'bundled';
    if (hub.has(name)) return 'hub';
    return history?.skills[name]?.provenance;
  };
}
