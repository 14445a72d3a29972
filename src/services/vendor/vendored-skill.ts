import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import type { Finding } from '../../core/findings.js';
import { skillFileName } from '../../core/layout.js';
import { computeDigest, lockFileName, parseLock, emptyLock, type SkillsLock } from '../../core/vendor/index.js';
import { checkSkillContent, checkWriteScan, type WriteGate } from '../manage/check-content.js';
import type { ManageContext } from '../manage/context.js';
import { readUpstreamFiles, type Upstream, type UpstreamFile } from './upstream.js';

/** Bigger than any skill a person reads through; a folder this size is a vendored repository, not a skill. */
export const maxVendoredBytes = 5 * 1024 * 1024;

export interface VendoredFolder {
  files: UpstreamFile[];
  /** `computedHash` of its regular files. */
  digest: string;
}

/** The skill folder `path` of the source at `commit`, refused when a link leads out of it or it is oversized. */
export async function readVendoredFolder(upstream: Upstream, commit: string, name: string, path: string): Promise<VendoredFolder> {
  const files = await readUpstreamFiles(upstream, commit, path);
  const where = `${path}/ in ${upstream.url.replace(/^([a-z+]+:\/\/)[^/@]*@/i, '$1')} at ${commit.slice(0, 12)}`;
  if (!files.some((f) => f.path === skillFileName && !f.symlink)) {
    throw refuse('vendor/no-skill', `skill "${name}": no ${skillFileName} in ${where}.`, name);
  }
  for (const file of files.filter((f) => f.symlink)) {
    const target = Buffer.from(file.bytes).toString('utf8');
    const resolved = posix.normalize(posix.join(posix.dirname(file.path), target));
    if (posix.isAbsolute(target) || resolved === '..' || resolved.startsWith('../')) {
      throw refuse('vendor/escapes', `skill "${name}": ${file.path} in ${where} links to ${target}, outside the skill.`, name);
    }
  }
  const bytes = files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (bytes > maxVendoredBytes) {
    throw refuse(
      'vendor/too-large',
      `skill "${name}" is ${bytes} bytes in ${where}; a vendored skill is at most ${maxVendoredBytes}.`,
      name,
    );
  }
  return { files, digest: digestOf(files) };
}

/** `computedHash` over the regular files (links left out, as vercel-labs/skills leaves them out). */
export function digestOf(files: readonly UpstreamFile[]): string {
  return computeDigest(files.filter((f) => !f.symlink));
}

export interface VendoredCheck {
  warnings: Finding[];
  gate: WriteGate;
}

/**
 * Validation and the scan, under the policy for an agent's background write: a
 * vendored skill is third-party content, so dangerous is refused (`scan/blocked`)
 * and caution waits for a person (`ask`), whoever runs the command.
 */
export async function checkVendored(
  ctx: ManageContext,
  input: {
    name: string;
    dir: string;
    pending: ReadonlyMap<string, Uint8Array | null>;
    before?: string;
    after: readonly string[];
    /** Default true; false scans only (a merge with conflict markers, for a person to resolve). */
    validate?: boolean;
  },
): Promise<VendoredCheck> {
  const text = input.pending.get(skillFileName);
  const warnings =
    text === undefined || text === null || input.validate === false
      ? []
      : checkSkillContent(ctx, {
          file: `${input.dir}/${skillFileName}`,
          folder: input.name,
          text: Buffer.from(text).toString('utf8'),
          ...(input.before !== undefined ? { before: input.before } : {}),
          files: input.after,
        });
  const gate = checkWriteScan({ ...ctx, actor: 'agent', source: 'background' }, input.name, input.dir, input.pending);
  return { warnings: [...warnings, ...gate.warnings], gate };
}

/** The library's `skills-lock.json`, or an empty lock when there is none. */
export function readLock(repoDir: string): SkillsLock {
  let text: string;
  try {
    text = readFileSync(join(repoDir, lockFileName), 'utf8');
  } catch {
    return emptyLock();
  }
  return parseLock(text);
}

export function refuse(code: string, message: string, skill?: string): SkillgardenError {
  return new SkillgardenError(code, `${message} Nothing was written.`, { data: { ...(skill ? { skill } : {}), exitCode: 2 } });
}
