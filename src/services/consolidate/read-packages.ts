import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import type { CuratedSkill, ReferenceFile, SkillFile } from '../../core/consolidate/types.js';
import { libraryRoots } from '../../store/layout/discover-library.js';
import type { LibrarySnapshot } from '../curator/read-library.js';

/** What consolidation plans over: the run's one snapshot, with each skill's whole package and the reference files' text. */
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

/** A reference file this large is not a job definition: never read whole for a rewrite. */
const maxReferenceBytes = 1_000_000;

/**
 * The snapshot's skills with what consolidation alone needs read: each package's files (SKILL.md and the rest), and
 * the text of the reference files the snapshot found. Provenance, pins and the layout are the snapshot's.
 */
export function readPackages(snapshot: LibrarySnapshot): Library {
  const protectedNames = new Set(snapshot.config.protected);
  const skills = snapshot.skills.map(({ location, name, provenance, adopted, pinned }): CuratedSkill => {
    const files: SkillFile[] = listFilesUnder(location.dir)
      .filter((path) => path !== skillFileName)
      .map((path) => ({ path, content: new Uint8Array(readFileSync(join(location.dir, path))) }));
    return {
      name,
      ...(location.category ? { category: location.category } : {}),
      dir: location.path,
      text: readFileSync(join(location.dir, skillFileName), 'utf8'),
      files,
      provenance,
      adopted,
      pinned,
      protected: protectedNames.has(name),
    };
  });
  return {
    skills,
    references: readReferences(snapshot.repoDir, snapshot.referenceFiles),
    archiveDirs: snapshot.archived.map((l) => l.path),
    roots: libraryRoots(snapshot.library.layout),
    rootOf: new Map(snapshot.skills.map((s) => [s.name, s.location.root])),
    findings: snapshot.findings.filter((f) => f.code.startsWith('provenance/')),
  };
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

function readReferences(repoDir: string, paths: readonly string[]): ReferenceFile[] {
  return [...paths]
    .sort()
    .filter((path) => statSync(join(repoDir, path)).size < maxReferenceBytes)
    .map((path) => ({ path, text: readFileSync(join(repoDir, path), 'utf8') }));
}
