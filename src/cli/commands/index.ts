import type { Command } from '../context.js';

/**
 * The command table. Each command's module is imported only when that command
 * runs, so `--version`, `--help` and a one-skill `validate` do not load the MCP
 * SDK, isomorphic-git and every service first. The name and summary live here for
 * the top-level help; test/cli/commands-index.test.ts checks they match the module's.
 * To add a command: one row, `lazy(name, summary, () => import('./x.js'), 'exportName')`.
 */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

function lazy<M>(name: string, summary: string, load: () => Promise<M>, exported: keyof M): CommandEntry {
  return {
    name,
    summary,
    async load() {
      const value = (await load())[exported] as Command | readonly Command[];
      const command = Array.isArray(value) ? (value as readonly Command[]).find((c) => c.name === name) : (value as Command);
      if (command === undefined || command.name !== name) throw new Error(`src/cli/commands: ${String(exported)} has no command "${name}"`);
      return command;
    },
  };
}

export const commands: readonly CommandEntry[] = [
  lazy('validate', 'validate skills (a folder, a SKILL.md, or the whole skills root)', () => import('./validate.js'), 'validateCommand'),
  lazy(
    'init',
    "detect the library's layout and write .skillgarden/config.yaml (and, with --workflows, the Action's two workflows)",
    () => import('./init.js'),
    'initCommand',
  ),
  lazy(
    'manage',
    'the skill_manage actions: create, edit, patch, delete, write-file, remove-file (each one commit)',
    () => import('./manage.js'),
    'manageCommand',
  ),
  lazy('list', 'skills with state, provenance, usage and score (archived included)', () => import('./list.js'), 'listCommand'),
  lazy('show', 'one skill: state, provenance, usage, history', () => import('./list.js'), 'showCommand'),
  lazy('pin', 'pin a skill: the curator and agents leave it alone', () => import('./acts.js'), 'actCommands'),
  lazy('unpin', 'unpin a skill', () => import('./acts.js'), 'actCommands'),
  lazy('adopt', "bring a person's skill under the curator's management", () => import('./acts.js'), 'actCommands'),
  lazy('archive', 'move a skill, whole, to skills/.archive/', () => import('./acts.js'), 'actCommands'),
  lazy('restore', 'bring an archived skill back, by its exact name', () => import('./acts.js'), 'actCommands'),
  lazy(
    'doctor',
    'report (and with --fix repair) what a crash or a killed process left behind',
    () => import('./doctor.js'),
    'doctorCommand',
  ),
  lazy(
    'log',
    'the ledger, read from Git (newest first): commits with trailers or touching a skill (--all: every commit)',
    () => import('./log.js'),
    'logCommand',
  ),
  lazy(
    'rollback',
    'fail-closed revert of one commit, or of every commit of a curator run, as one commit',
    () => import('./rollback.js'),
    'rollbackCommand',
  ),
  lazy(
    'usage',
    'telemetry: bump a use or view (batched locally), flush as one commit, show totals',
    () => import('./usage.js'),
    'usageCommand',
  ),
  lazy(
    'curate',
    'one curator run: lifecycle transitions as commits (or, with --propose, as the branch skillgarden/lifecycle), run.json and REPORT.md',
    () => import('./curate.js'),
    'curateCommand',
  ),
  lazy(
    'detect',
    'pattern detection alone: repeated tool-call sequences in transcripts, with drafted skills',
    () => import('./detect.js'),
    'detectCommand',
  ),
  lazy(
    'evidence',
    'per skill, from transcripts and history: sessions that had it, loaded it, missed it, and how they went with and without it',
    () => import('./evidence.js'),
    'evidenceCommand',
  ),
  lazy(
    'plan',
    'consolidation plans (umbrella skills) for the curated skills: shown, or written as proposal branches (--apply)',
    () => import('./plan.js'),
    'planCommand',
  ),
  lazy(
    'proposals',
    'the proposal branches (lifecycle, umbrella, new, staged) and their state; decline one',
    () => import('./proposals.js'),
    'proposalsCommand',
  ),
  lazy(
    'scan',
    'the security scan alone: exfiltration, injection, destructive commands, invisible Unicode, structure',
    () => import('./scan.js'),
    'scanCommand',
  ),
  lazy(
    'reminder',
    "the runtime's Layer 1: the <system-reminder> index of skills for a system prompt",
    () => import('./runtime.js'),
    'reminderCommand',
  ),
  lazy(
    'load',
    "the runtime's Layer 2: a skill's full text, variables filled in (or its sub-agent spec)",
    () => import('./runtime.js'),
    'loadCommand',
  ),
  lazy(
    'mcp',
    'serve the library to MCP clients on stdio (skills_list, skill_view, skill_manage, skill_usage; skills as prompts)',
    () => import('./runtime.js'),
    'mcpCommand',
  ),
  lazy(
    'sync',
    'pull the remote, replay local ledger commits on top, push (with retries); stops on a real conflict, losing nothing',
    () => import('./runtime.js'),
    'syncCommand',
  ),
  lazy(
    'demo',
    'the main job on a bundled demo library, in a temporary repository (embedded Git, no server)',
    () => import('./demo.js'),
    'demoCommand',
  ),
  lazy(
    'add',
    'copy skills from a git repository into the library, pinned in skills-lock.json (one commit)',
    () => import('./add.js'),
    'addCommand',
  ),
  lazy(
    'update',
    'bring vendored skills up to their source (three-way merge, one commit each); --check lists those behind',
    () => import('./update.js'),
    'updateCommand',
  ),
  lazy(
    'install',
    'restore vendored skills exactly as skills-lock.json pins them (--frozen), verifying each digest',
    () => import('./install.js'),
    'installCommand',
  ),
  lazy(
    'publish',
    'write the Agent Skills discovery index (.well-known/agent-skills/index.json) and its artifacts, for installers',
    () => import('./publish.js'),
    'publishCommand',
  ),
];
