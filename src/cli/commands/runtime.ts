import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import { createRepoUsageStore } from '../../registry/repo-usage-store.js';
import { isLoaded, renderLoadResult } from '../../registry/load-result.js';
import { SkillRegistry } from '../../registry/skill-registry.js';
import { createMemoryUsageStore, type UsageStore } from '../../registry/usage-store.js';
import { defaultWriterId } from '../../services/usage.js';
import { exitCodes, type Command, type CommandContext } from '../context.js';
import { openLibrary, readLibraryRoots, requireSkills } from '../../services/library.js';
import { openRepoLedger, repoConfig } from '../open-repo.js';

/** The repository's usage when it is a git repository, else none (a plain folder of skills still loads). */
function usageFor(context: CommandContext): UsageStore {
  const repoDir = context.global.repo;
  if (!existsSync(join(repoDir, '.git'))) return createMemoryUsageStore();
  return createRepoUsageStore({
    repoDir,
    skillsDir: readLibraryRoots(repoDir, repoConfig(context, ['skills_dir']).skills_dir),
    writer: defaultWriterId(context.io.env),
    now: () => context.global.now,
  });
}

/** The registry over the library's one discovery; an empty library is an error unless `--allow-empty`. */
async function openRegistry(context: CommandContext): Promise<SkillRegistry> {
  const skillsDir = repoConfig(context, ['skills_dir']).skills_dir;
  requireSkills(openLibrary(context.global.repo, skillsDir), { allowEmpty: context.values['allow-empty'] === true });
  return SkillRegistry.open({
    repoDir: context.global.repo,
    ...(skillsDir === undefined ? {} : { skillsDir }),
    usage: usageFor(context),
    now: () => context.global.now,
    ...inlineShellFor(context),
  });
}

/** `--inline-shell` runs `` !`cmd` `` in skill bodies (5 s and 64 KiB per command); off unless asked. */
function inlineShellFor(context: CommandContext): { inlineShell?: { enabled: true } } {
  return context.values['inline-shell'] === true ? { inlineShell: { enabled: true } } : {};
}

function integerOption(value: unknown, option: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0)
    throw new SkillgardenError('cli/usage', `--${option} ${JSON.stringify(value)} is not a whole number of characters`);
  return number;
}

export const reminderCommand: Command = {
  name: 'reminder',
  summary: "the runtime's Layer 1: the <system-reminder> index of skills for a system prompt",
  usage: 'reminder [--budget CHARS] [--entry-chars CHARS] [--paths PATH…] [--allow-empty]',
  options: {
    budget: { type: 'string' },
    'entry-chars': { type: 'string' },
    paths: { type: 'string', multiple: true },
    'allow-empty': { type: 'boolean' },
  },
  async run(context) {
    const registry = await openRegistry(context);
    const paths = (context.values.paths as string[] | undefined) ?? [];
    if (paths.length > 0) registry.activateForPaths(paths);
    const budgetChars = integerOption(context.values.budget, 'budget');
    const entryChars = integerOption(context.values['entry-chars'], 'entry-chars');
    const reminder = registry.buildReminder({
      ...(budgetChars === undefined ? {} : { budgetChars }),
      ...(entryChars === undefined ? {} : { entryChars }),
    });
    if (context.global.json) {
      const findings = registry.findings();
      context.io.stdout.write(
        `${JSON.stringify({ reminder, skills: reminder.split('\n').filter((l) => l.startsWith('- ')).length, findings }, null, 2)}\n`,
      );
    } else context.io.stdout.write(`${reminder}\n`);
    return exitCodes.ok;
  },
};

export const loadCommand: Command = {
  name: 'load',
  summary: "the runtime's Layer 2: a skill's full text, variables filled in (or its sub-agent spec)",
  usage: 'load NAME [--session ID] [--arguments TEXT] [--record] [--inline-shell]',
  options: { session: { type: 'string' }, arguments: { type: 'string' }, record: { type: 'boolean' }, 'inline-shell': { type: 'boolean' } },
  async run(context) {
    const [name, ...rest] = context.positionals;
    if (name === undefined || rest.length > 0) throw new SkillgardenError('cli/usage', 'give exactly one skill NAME');
    const registry = await openRegistry(context);
    const args = context.values.arguments as string | undefined;
    const result = await registry.load(name, {
      sessionId: (context.values.session as string | undefined) ?? 'cli',
      ...(args === undefined ? {} : { arguments: args }),
    });
    if (isLoaded(result) && context.values.record === true) await registry.recordUsage(result.name, 'use');
    if (context.global.json) context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else (isLoaded(result) ? context.io.stdout : context.io.stderr).write(renderLoadResult(result));
    return isLoaded(result) ? exitCodes.ok : exitCodes.findings;
  },
};

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the library to MCP clients on stdio (skills_list, skill_view, skill_manage, skill_usage; skills as prompts)',
  usage: 'mcp [--inline-shell] [--allow-empty]',
  options: { 'inline-shell': { type: 'boolean' }, 'allow-empty': { type: 'boolean' } },
  async run(context) {
    if (!context.io.stdin) throw new SkillgardenError('cli/usage', 'mcp needs standard input: run it from an MCP client');
    const config = repoConfig(context, ['skills_dir', 'profile']);
    requireSkills(openLibrary(context.global.repo, config.skills_dir), { allowEmpty: context.values['allow-empty'] === true });
    // The MCP SDK (with zod and ajv, 0.6 MB) is loaded by this command only, not by `load` and `reminder`.
    const { serveStdio } = await import('../../mcp/serve-stdio.js');
    await serveStdio({
      repoDir: context.global.repo,
      ...(config.skills_dir === undefined ? {} : { skillsDir: config.skills_dir }),
      profile: config.profile,
      openLedger: () => openRepoLedger(context),
      usage: usageFor(context),
      ...inlineShellFor(context),
      input: context.io.stdin,
      output: context.io.stdout as NodeJS.WritableStream,
      onError: (error) => context.io.stderr.write(`skillgarden mcp: ${error instanceof Error ? error.message : String(error)}\n`),
    });
    return exitCodes.ok;
  },
};

export const syncCommand: Command = {
  name: 'sync',
  summary: 'pull the remote, replay local ledger commits on top, push (with retries); stops on a real conflict, losing nothing',
  usage: 'sync [--remote NAME] [--branch NAME]',
  options: { remote: { type: 'string' }, branch: { type: 'string' } },
  async run(context) {
    const { syncRepository } = await import('../../services/sync.js');
    const result = await syncRepository({
      repoDir: context.global.repo,
      ...(typeof context.values.remote === 'string' ? { remote: context.values.remote } : {}),
      ...(typeof context.values.branch === 'string' ? { branch: context.values.branch } : {}),
    });
    if (context.global.json) context.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      const parts = [
        `pulled ${result.pulled}`,
        result.replayed > 0 ? `replayed ${result.replayed} local` : undefined,
        `pushed ${result.pushed}`,
      ].filter(Boolean);
      context.io.stdout.write(`${result.branch}: ${parts.join(', ')} commit(s)\n`);
    }
    return exitCodes.ok;
  },
};
