import { readFileSync } from 'node:fs';
import { SkillgardenError } from './core/errors.js';

let version: string | undefined;

/** Set by the Action's bundle (scripts/build-action.ts), which may run with no package.json above it. */
declare const __SKILLGARDEN_VERSION__: string | undefined;

/**
 * The package's version, read from its package.json, so a release changes one place. The code runs from src/ (tests,
 * tsx), lib/ (the built package) and lib/bundle/cli/ (the CLI bundle), so the nearest skillgarden package.json above
 * this file is looked for rather than one fixed relative path.
 */
export function readPackageVersion(): string {
  if (version !== undefined) return version;
  if (typeof __SKILLGARDEN_VERSION__ === 'string') return (version = __SKILLGARDEN_VERSION__);
  // Up to the root, where `..` no longer changes the URL.
  for (let dir = new URL('.', import.meta.url), above = ''; dir.href !== above; above = dir.href, dir = new URL('..', dir)) {
    const manifest = readManifest(new URL('package.json', dir));
    if (manifest?.name === 'skillgarden' && typeof manifest.version === 'string') return (version = manifest.version);
  }
  throw new SkillgardenError('package/no-version', `no skillgarden package.json above ${import.meta.url}: reinstall the package`);
}

function readManifest(url: URL): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined; // none at this level (or not ours): look one level up
  }
}
