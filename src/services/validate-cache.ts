import { ContentCache } from '../core/content-cache.js';
import type { Finding } from '../core/findings.js';
import type { LinkScope } from '../core/config/config.js';
import type { SkillFileEntry } from '../core/rules/index.js';
import type { ProfileName } from '../core/schema/types.js';
import * as crypto from 'node:crypto';
import { openRepoCache } from '../store/repo-cache.js';
import { readTrackedBlobs, type TrackedBlobs } from '../store/scan/tracked-blobs.js';
import { readPackageVersion } from '../version.js';

/**
 * Bump when a rule, the schema or how a skill is read changes: validate's
 * cache is then dropped whole. (The package version is part of the key too,
 * so a release never serves an older release's findings.)
 */
const validateEngineVersion = 1;

/** What validating one SKILL.md found, and the paths outside the skill whose existence it looked at (links to siblings). */
export interface CachedValidation {
  findings: Finding[];
  /** `[path relative to the library root, existed]`: a hit is used only if each still holds. */
  probes: [string, boolean][];
}

export type ValidateCache = ContentCache<CachedValidation>;

/** A run's view of validate's cache that remembers what it was given, so a thread of the pass can hand that on. */
export class RecordingValidateCache extends ContentCache<CachedValidation> {
  /** What `put` added, in order. */
  readonly puts: [string, CachedValidation][] = [];

  override put(key: string, value: CachedValidation): void {
    super.put(key, value);
    this.puts.push([key, value]);
  }
}

export const validateCacheFileName = 'validate-cache.json';

/** Everything the findings of one skill depend on, beside the code: its bytes, its name and place, its file list, the settings. */
export interface ValidateKeyInput {
  /** SKILL.md's git blob id. */
  blob: string;
  reportPath: string;
  folder: string;
  profile: ProfileName;
  links: LinkScope | undefined;
  skillDir: string | undefined;
  files: ReadonlyMap<string, SkillFileEntry>;
}

export function validateKey(input: ValidateKeyInput): string {
  const files = [...input.files.values()].map((f) => `${f.path}:${f.size}`).sort();
  const place = [input.reportPath, input.folder, input.profile, input.links ?? '', input.skillDir ?? ''];
  return `${input.blob} ${sha1(JSON.stringify([place, files]))}`;
}

/** The one-shot `crypto.hash` (Node 20.12+): a Hash object per skill costs more than the hashing itself. */
const oneShot = (crypto as { hash?: (algorithm: string, data: string) => string }).hash;
const sha1 = (text: string): string => (oneShot ? oneShot('sha1', text) : crypto.createHash('sha1').update(text).digest('hex'));

function isCachedValidation(value: unknown): value is CachedValidation {
  const entry = value as Partial<CachedValidation> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    Array.isArray(entry.findings) &&
    entry.findings.every((f) => typeof f === 'object' && f !== null && typeof f.code === 'string' && typeof f.file === 'string') &&
    Array.isArray(entry.probes) &&
    entry.probes.every((p) => Array.isArray(p) && typeof p[0] === 'string' && typeof p[1] === 'boolean')
  );
}

/** A run's validate cache from `.git/skillgarden/validate-cache.json`, with its `save` (undefined outside a git repository). */
export async function openValidateCache(
  repo: string,
  options: { tracked?: TrackedBlobs | undefined } = {},
): Promise<{ cache: RecordingValidateCache; tracked: TrackedBlobs | undefined; save(): void } | undefined> {
  const file = await openRepoCache(repo, validateCacheFileName);
  if (!file) return undefined;
  const cache = new RecordingValidateCache(file.data, `validate:${validateEngineVersion}:${readPackageVersion()}`, isCachedValidation);
  return {
    cache,
    // The scan of the same pass may have read git's index already (`tracked`): it is not read twice.
    tracked: 'tracked' in options ? options.tracked : readTrackedBlobs(file.dir, file.gitdir),
    save: () => {
      if (cache.changed) file.save(cache.toData());
    },
  };
}
