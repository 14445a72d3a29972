import { createHash } from 'node:crypto';
import { readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { skillFileName } from '../core/layout.js';
import { parseSkillBytes } from '../core/skill/index.js';
import { listRegularFiles } from '../services/library.js';
import { skillFileUri } from './skill-uri.js';

/** The extension's per-skill limits (SEP-2640, "Limits"): hosts need accept no more. */
export const skillLimits = { files: 512, bytes: 16 * 1024 * 1024 } as const;
/** Folders deeper than this are not walked: a runaway tree is reported, never hung on. */
const maxDepth = 16;

export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A `skills/list` entry, as the extension defines it. */
export interface SkillEntry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: SkillResource[];
}

/** A skill the server will not serve, and why (named so a host can tell its user). */
export interface WithheldSkill {
  uri: string;
  reason: 'too-many-files' | 'too-large' | 'name-mismatch' | 'no-frontmatter' | 'unreadable';
  message: string;
}

export interface CatalogSkill {
  /** Folder relative to the skills root: the URI's skill path. */
  skillPath: string;
  dir: string;
  /** Relative file path (POSIX) → its entry; only regular files (links are not served: their target can change unseen). */
  files: Map<string, SkillResource & { path: string }>;
  entry: SkillEntry;
}

export type CatalogResult = { ok: true; skill: CatalogSkill } | { ok: false; withheld: WithheldSkill };

interface CachedDigest {
  stamp: string;
  digest: string;
}

/**
 * Builds extension entries from skill folders. Digests are cached by each
 * file's (inode, size, mtime), so a listing re-reads only files that changed.
 */
export class SkillCatalog {
  private readonly digests = new Map<string, CachedDigest>();

  /** The entry of the skill in `dir` (served as `skillPath`), or why it is withheld. */
  read(skillPath: string, dir: string): CatalogResult {
    const uri = skillFileUri(skillPath, skillFileName);
    const walked = listRegularFiles(dir, { maxFiles: skillLimits.files, maxDepth });
    if (walked.count > skillLimits.files) {
      return withheld(uri, 'too-many-files', `${skillPath} has more than ${skillLimits.files} files (the extension's limit per skill)`);
    }
    if (walked.bytes > skillLimits.bytes) {
      return withheld(uri, 'too-large', `${skillPath} holds ${walked.bytes} bytes, over the extension's ${skillLimits.bytes} per skill`);
    }
    if (!walked.files.has(skillFileName)) return withheld(uri, 'unreadable', `${skillPath}/${skillFileName} is not a regular file`);
    let skillBytes: Buffer;
    try {
      skillBytes = readFileSync(join(dir, skillFileName));
    } catch (error) {
      return withheld(uri, 'unreadable', `cannot read ${skillPath}/${skillFileName}: ${(error as Error).message}`);
    }
    const parsed = parseSkillBytes(skillBytes, { file: `${skillPath}/${skillFileName}` });
    const name = parsed.fields.name;
    if (typeof name !== 'string' || typeof parsed.fields.description !== 'string') {
      return withheld(uri, 'no-frontmatter', `${skillPath}/${skillFileName} has no frontmatter with a name and a description`);
    }
    const folder = skillPath.slice(skillPath.lastIndexOf('/') + 1);
    if (name !== folder) {
      return withheld(uri, 'name-mismatch', `${skillPath}: frontmatter name "${name}" differs from its folder "${folder}"`);
    }
    const files = new Map<string, SkillResource & { path: string }>();
    for (const [path, stat] of walked.files) {
      const absolute = join(dir, path);
      const digest = path === skillFileName ? sha256(skillBytes) : this.digestOf(absolute, stat);
      if (digest === undefined) return withheld(uri, 'unreadable', `cannot read ${skillPath}/${path}`);
      const size = path === skillFileName ? skillBytes.length : stat.size;
      files.set(path, { path, uri: skillFileUri(skillPath, path), digest, size });
    }
    const resources = [...files.values()].map(({ uri: fileUri, digest, size }) => ({ uri: fileUri, digest, size }));
    // JSON round trip: the frontmatter as JSON renders it (YAML may hold values JSON has no form for).
    const frontmatter = JSON.parse(JSON.stringify(parsed.fields)) as Record<string, unknown>;
    return { ok: true, skill: { skillPath, dir, files, entry: { uri, frontmatter, resources } } };
  }

  private digestOf(path: string, stat: Stats): string | undefined {
    const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
    const cached = this.digests.get(path);
    if (cached?.stamp === stamp) return cached.digest;
    try {
      const digest = sha256(readFileSync(path));
      this.digests.set(path, { stamp, digest });
      return digest;
    } catch {
      return undefined;
    }
  }
}

export function sha256(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

function withheld(uri: string, reason: WithheldSkill['reason'], message: string): CatalogResult {
  return { ok: false, withheld: { uri, reason, message } };
}
