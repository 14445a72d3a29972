import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configFile } from '../core/config/config-path.js';
import { defaultConfig, parseConfig, type Config } from '../core/config/config.js';
import type { ReportFinding } from '../core/scan/report.js';
import { readEvent } from './event.js';
import { Git } from './git.js';
import type { ActionInputs } from './inputs.js';

/**
 * What decides a pull request's check, read from its base commit: the settings (`scan.allow`, inline
 * suppressions, profile, links, skills_dir) and the `skillgarden-ignore` markers already there. A pull
 * request — a fork's above all — cannot allow its own findings: its changes to the config apply once
 * merged, and a marker it adds does not suppress a high-severity finding in its own check (a reviewer decides).
 */
export interface BasePolicy {
  config: Config;
  /** The base commit, for reading its files. */
  sha: string;
  /** Whether the pull request changes the config file (its settings wait for the merge). */
  configChanged: boolean;
  /** Whether the base commit could be read; when not, the built-in defaults decide (strict: nothing allowed). */
  read: boolean;
}

/** The base's policy on a pull request; undefined for any other event (the tree's own config decides). */
export async function readBasePolicy(inputs: ActionInputs): Promise<BasePolicy | undefined> {
  const pr = readEvent(inputs.github.eventPath).pullRequest;
  if (!pr) return undefined;
  const git = new Git(inputs.workspace);
  const head = existsSync(join(inputs.workspace, configFile)) ? readFileSync(join(inputs.workspace, configFile), 'utf8') : undefined;
  try {
    if ((await git.run(['cat-file', '-e', `${pr.baseSha}^{commit}`], { allowFailure: true })).code !== 0)
      await git.run(['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', pr.baseSha]);
    const shown = await git.run(['show', `${pr.baseSha}:./${configFile}`], { allowFailure: true });
    const base = shown.code === 0 ? shown.stdout : undefined;
    const config = base === undefined ? { ...defaultConfig } : parseConfig(base, configFile).config;
    return { config, sha: pr.baseSha, configChanged: head !== base, read: true };
  } catch {
    return { config: { ...defaultConfig }, sha: pr.baseSha, configChanged: head !== undefined, read: false };
  }
}

/**
 * The inline suppressions of the pull request's tree that its base already held: a marker line found verbatim
 * in the base's version of the file. The others were added by the pull request and do not apply to its check.
 */
export async function splitInlineSuppressions(
  inputs: ActionInputs,
  policy: BasePolicy,
  suppressed: readonly ReportFinding[],
): Promise<{ trusted: ReportFinding[]; added: ReportFinding[] }> {
  const git = new Git(inputs.workspace);
  // Each base file read and split once, however many of its findings are suppressed.
  const baseLines = new Map<string, ReadonlySet<string> | undefined>();
  const trusted: ReportFinding[] = [];
  const added: ReportFinding[] = [];
  for (const f of suppressed) {
    if (f.suppressed?.by !== 'inline') {
      trusted.push(f);
      continue;
    }
    if (!baseLines.has(f.file)) {
      const shown = policy.read ? await git.run(['show', `${policy.sha}:./${f.file}`], { allowFailure: true }) : undefined;
      baseLines.set(f.file, shown?.code === 0 ? new Set(shown.stdout.split('\n')) : undefined);
    }
    const base = baseLines.get(f.file);
    const lines = readMarkerLines(join(inputs.workspace, f.file), f.line);
    const onBase = base !== undefined && lines.some((line) => base.has(line));
    (onBase ? trusted : added).push(f);
  }
  return { trusted, added };
}

/** The marker lines that can suppress a finding on `line`: that line and the one before, when they hold a marker. */
function readMarkerLines(path: string, line: number): string[] {
  let lines: string[];
  try {
    lines = readFileSync(path, 'utf8').split('\n');
  } catch {
    return [];
  }
  return [lines[line - 1], lines[line - 2]].filter((l): l is string => l !== undefined && l.includes('skillgarden-ignore'));
}
