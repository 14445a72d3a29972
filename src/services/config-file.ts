import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { defaultConfig, parseConfig, type Config } from '../core/config/config.js';
import type { Finding } from '../core/findings.js';
import { metaDir } from '../core/layout.js';

// Reading the config alone, apart from the curator's library reader: `validate` and `detect` need it
// without loading the history index and isomorphic-git behind it.

export const configFile = `${metaDir}/config.yaml`;

export function readConfig(repoDir: string): { config: Config; findings: Finding[] } {
  const path = join(repoDir, configFile);
  if (!existsSync(path)) return { config: { ...defaultConfig }, findings: [] };
  return parseConfig(readFileSync(path, 'utf8'), configFile);
}

/** The config, or a clear error naming every bad key: never a silent fallback to defaults. */
export function requireConfig(repoDir: string): Config {
  const { config, findings } = readConfig(repoDir);
  if (findings.length > 0) {
    const lines = findings.map((f) => `  ${f.file}:${f.line} ${f.message} (${f.hint})`);
    throw new SkillgardenError('config/invalid', `${configFile} is invalid:\n${lines.join('\n')}`, { data: { findings } });
  }
  return config;
}
