import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { defaultConfig, parseConfig, type Config, type ParsedConfig } from '../core/config/config.js';
import type { Finding } from '../core/findings.js';
import { configFile } from '../core/config/config-path.js';

// Reading the config alone, apart from the curator's library reader: `validate` and `detect` need it
// without loading the history index and isomorphic-git behind it.

export { configFile };

export function readConfig(repoDir: string): ParsedConfig {
  const path = join(repoDir, configFile);
  if (!existsSync(path)) return { config: { ...defaultConfig }, findings: [], invalidKeys: [] };
  return parseConfig(readFileSync(path, 'utf8'), configFile);
}

export interface RequireConfigOptions {
  /**
   * The keys this command depends on. Given, only an error in one of them
   * (or a file that is not YAML) refuses; errors elsewhere go to `warn` and
   * the command goes on with the defaults of the bad keys. Omitted, every key.
   */
  needs?: readonly (keyof Config)[];
  warn?: (message: string) => void;
}

function describeConfigFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `  ${f.file}:${f.line} ${f.message} (${f.hint})`).join('\n');
}

/** The config, or a clear error naming every bad key the command needs: never a silent fallback to defaults. */
export function requireConfig(repoDir: string, options: RequireConfigOptions = {}): Config {
  const parsed = readConfig(repoDir);
  const { config, findings, invalidKeys } = parsed;
  if (findings.length === 0) return config;
  const blocking = options.needs === undefined || invalidKeys.some((k) => k === '*' || (options.needs as readonly string[]).includes(k));
  if (blocking) {
    throw new SkillgardenError('config/invalid', `${configFile} is invalid:\n${describeConfigFindings(findings)}`, {
      data: { findings, keys: invalidKeys },
    });
  }
  options.warn?.(
    `warning: ${configFile} has invalid settings (${invalidKeys.join(', ')}); going on with their defaults, as this command does not use them:\n${describeConfigFindings(findings)}\n`,
  );
  return config;
}
