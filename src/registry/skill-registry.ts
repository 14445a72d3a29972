import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Finding } from '../core/findings.js';
import { findClosestNames } from '../core/registry/closest-names.js';
import { buildForkSpec, renderInlineLoad, renderSkillContent } from '../core/registry/load-content.js';
import { buildReminder, planIndex, rankEntries, type ReminderOptions } from '../core/registry/reminder.js';
import { parseSlashCommand } from '../core/registry/slash-command.js';
import { buildToolDescription } from '../core/registry/tool-description.js';
import { planAliases } from '../core/registry/plan-aliases.js';
import type { RegistryEntry } from '../core/registry/types.js';
import { parsePins, pinsFile } from '../core/layout/pins.js';
import { keyUsageByClientName, type ReadKind, type UsageCounters } from '../core/usage/index.js';
import { readArchiveInfo } from './archive-info.js';
import { ConditionalSkills } from './conditional-skills.js';
import { runInlineShell, type InlineShellOptions } from './inline-shell.js';
import { LibraryCache, type RefreshResult } from './library-cache.js';
import { defaultIndexFile } from './library-index.js';
import { nodeScanFs, type ScanFs } from './library-scan.js';
import { watchSkills, type SkillWatcher, type WatchOptions } from './watcher.js';
import type { ForkRunner, LoadResult } from './load-result.js';
import { bumpCounters, createMemoryUsageStore, type UsageStore } from './usage-store.js';

export interface SkillRegistryOptions {
  /** The repository (or project) root. */
  repoDir: string;
  /** The `skills_dir` setting relative to `repoDir`: a folder, a glob or a list (default: detected from the layout). */
  skillsDir?: string | readonly string[];
  /** Default: in memory, nothing persisted. */
  usage?: UsageStore;
  now?: () => Date;
  forkRunner?: ForkRunner;
  inlineShell?: InlineShellOptions;
  /** Root that `activateForPaths` paths are relative to (default `repoDir`). */
  projectRoot?: string;
  reminder?: ReminderOptions;
  fs?: ScanFs;
  /**
   * The persisted index of parsed skills (src/registry/library-index.ts), so a cold start reads
   * only what changed. Default (and `true`): `skillgarden/registry-index.json` in the repository's
   * git folder (a linked worktree's own), none outside a git repository; `false`: none; a path: that file.
   */
  indexFile?: string | boolean;
}

export interface LoadOptions {
  sessionId: string;
  /** Argument text, as after `/name`. */
  arguments?: string;
}

type Listener = (change: RefreshResult) => void;

/** The runtime registry (DESIGN §11): the library parsed once, refreshed by modification times, served in two layers. */
export class SkillRegistry {
  private readonly cache: LibraryCache;
  private readonly usage: UsageStore;
  private readonly now: () => Date;
  private totals = new Map<string, UsageCounters>();
  private aliases = new Map<string, string>();
  /** Plain names several plugins' skills share (`setup` for `a:setup` and `b:setup`): each with its qualified names. */
  private ambiguous = new Map<string, string[]>();
  private readonly conditional: ConditionalSkills;
  private readonly listeners = new Set<Listener>();
  private version = 0;
  private reminderCache: { key: string; text: string } | undefined;

  private constructor(private readonly options: SkillRegistryOptions) {
    this.cache = new LibraryCache(
      { repoDir: options.repoDir, skillsDir: options.skillsDir },
      options.fs ?? nodeScanFs,
      indexFileFor(options),
    );
    this.usage = options.usage ?? createMemoryUsageStore();
    this.now = options.now ?? (() => new Date());
    this.conditional = new ConditionalSkills(options.projectRoot ?? options.repoDir);
  }

  static async open(options: SkillRegistryOptions): Promise<SkillRegistry> {
    const registry = new SkillRegistry(options);
    await registry.refresh();
    return registry;
  }

  /**
   * Re-reads what changed on disk and the usage totals; tells listeners when
   * skills changed. `changedFiles` (absolute SKILL.md paths) narrows the check
   * to those files, as the watcher does.
   */
  async refresh(options: { changedFiles?: readonly string[] } = {}): Promise<RefreshResult> {
    const result = this.cache.refresh(options.changedFiles);
    // Usage as the client names the skill (`plugin:skill`); an old record under a folder's plain name counts where unambiguous.
    const totals = keyUsageByClientName(
      await this.usage.totals(),
      [...this.cache.entries()].map((e) => e.name),
    ).totals;
    const totalsMoved = !sameTotals(this.totals, totals);
    this.totals = totals;
    this.applyRefresh(result, totalsMoved);
    return result;
  }

  private applyRefresh(result: RefreshResult, totalsMoved: boolean): void {
    const changed = result.added.length + result.changed.length + result.removed.length > 0;
    // The cached reminder survives a refresh that found nothing new: hosts refresh every turn.
    if (changed || totalsMoved) this.version++;
    if (changed) this.rebuildAliases();
    this.conditional.forget(result.removed);
    if (changed || result.invalid.length > 0) {
      for (const listener of this.listeners) listener(result);
    }
  }

  /**
   * Entries restored from the persisted index carry no body until they are handed out: read them (all, or
   * these names) now, and refresh the files that changed since, so a body always matches its entry.
   */
  private settleBodies(names?: readonly string[]): void {
    const changed = this.cache.settleBodies(names);
    if (changed.length > 0) this.applyRefresh(this.cache.refresh(changed), false);
  }

  /** Hot reload: refreshes after SKILL.md changes on disk (debounced); `close()` the watcher to stop. */
  watch(options: WatchOptions = {}): SkillWatcher {
    const refresh = (changedFiles: string[] | undefined) => this.refresh(changedFiles ? { changedFiles } : {});
    const watchers = this.cache.roots().map((root) => watchSkills(root, refresh, options));
    return {
      close: () => watchers.forEach((w) => w.close()),
      idle: async () => {
        await Promise.all(watchers.map((w) => w.idle()));
      },
    };
  }

  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every served skill, best usage score first. */
  list(): RegistryEntry[] {
    this.settleBodies();
    return rankEntries(this.cache.entries(), this.totals, this.now());
  }

  /** By canonical name or by its frontmatter alias. */
  get(name: string): RegistryEntry | undefined {
    const found = this.lookup(name);
    if (found === undefined) return undefined;
    this.settleBodies([found.name]);
    return this.lookup(name);
  }

  /** Layer 1 only: the entry as held (a body restored from the index may not be read yet). */
  private lookup(name: string): RegistryEntry | undefined {
    return this.cache.entry(name) ?? this.cache.entry(this.aliases.get(name) ?? '');
  }

  /** Problems with the library as it is on disk (the last valid versions are still served). */
  findings(): Finding[] {
    return this.cache.problems();
  }

  usageOf(name: string): UsageCounters | undefined {
    return this.totals.get(this.lookup(name)?.name ?? name);
  }

  buildReminder(options: ReminderOptions = {}): string {
    const merged = { ...this.options.reminder, ...options };
    const now = this.now();
    // The order moves with the clock only through the score's half-life: a minute's drift cannot matter.
    const pins = this.readPins();
    const key = `${this.version}|${[...pins].join(',')}|${merged.budgetChars}|${merged.entryChars}|${merged.loadHint}|${Math.floor(now.getTime() / 60_000)}`;
    if (this.reminderCache?.key !== key) this.reminderCache = { key, text: buildReminder(this.indexEntries(now), merged) };
    return this.reminderCache.text;
  }

  buildToolDescription(options: ReminderOptions = {}): string {
    return buildToolDescription(this.indexEntries(this.now()), { ...this.options.reminder, ...options });
  }

  /**
   * Counts a use or a view under the canonical name. False for an unknown
   * name, or when the usage store failed (the running total still counts it:
   * telemetry never breaks a load).
   */
  async recordUsage(name: string, kind: ReadKind): Promise<boolean> {
    const canonical = this.lookup(name)?.name;
    // An unknown name is not counted: usage under a name no skill has would only confuse the curator.
    if (canonical === undefined) return false;
    const at = this.now();
    this.totals.set(canonical, bumpCounters(this.totals.get(canonical), kind, at));
    this.version++;
    try {
      await this.usage.record(canonical, kind, at);
      return true;
    } catch {
      return false;
    }
  }

  /** Layer 2: the skill's content (inline) or its sub-agent's work (fork); archived and unknown names answered helpfully. */
  async load(name: string, options: LoadOptions): Promise<LoadResult> {
    if (/[/\\]|^\.\.?$/.test(name) || name.trim() === '') {
      return {
        status: 'bad-name',
        name,
        message: `"${name}" is not a skill name: names have no path separators. Use a name from the skills list.`,
      };
    }
    const entry = this.get(name);
    if (!entry) return this.answerMissing(name);
    const values = {
      skillDir: entry.dir,
      sessionId: options.sessionId,
      ...(options.arguments === undefined ? {} : { arguments: options.arguments }),
    };
    let content = renderSkillContent(entry, values);
    if (this.options.inlineShell?.enabled) content = await runInlineShell(content, entry.dir, this.options.inlineShell);
    const findings = entry.findings;
    if (entry.context === 'fork') {
      const spec = buildForkSpec(entry, content, values);
      const output = this.options.forkRunner ? await this.options.forkRunner.run(spec) : undefined;
      return { status: 'fork', name: entry.name, spec, output, findings };
    }
    return {
      status: 'inline',
      name: entry.name,
      content: renderInlineLoad(entry, content, entry.dir),
      allowedTools: entry.allowedTools,
      findings,
    };
  }

  /** `/name args` from a user: only user-invocable skills answer. */
  async invokeSlash(text: string, options: { sessionId: string }): Promise<LoadResult> {
    const command = parseSlashCommand(text);
    if (!command) return { status: 'bad-name', name: text, message: `"${text}" is not a slash command; write /NAME [ARGUMENTS].` };
    const entry = this.lookup(command.name);
    if (entry && !entry.userInvocable) {
      return {
        status: 'not-invocable',
        name: entry.name,
        message: `/${entry.name} is not a command a user can invoke (user-invocable: false).`,
      };
    }
    return this.load(command.name, { sessionId: options.sessionId, arguments: command.arguments });
  }

  /** Skills a user can invoke as slash commands, with their argument hints. */
  slashCommands(): RegistryEntry[] {
    return this.list().filter((e) => e.userInvocable);
  }

  /** Conditional skills whose `paths` globs match any of `paths`; changes nothing. */
  matchingSkills(paths: readonly string[]): string[] {
    return this.conditional.matching(this.cache.entries(), paths);
  }

  /** Wakes the conditional skills matching `paths`; returns the names newly woken. */
  activateForPaths(paths: readonly string[]): string[] {
    const woken = this.conditional.wake(this.matchingSkills(paths));
    if (woken.length > 0) this.version++;
    return woken;
  }

  /** False for a conditional skill no touched path has woken yet (and for an unknown name). */
  isAwake(name: string): boolean {
    const entry = this.lookup(name);
    return entry !== undefined && this.conditional.isAwake(entry);
  }

  private async answerMissing(name: string): Promise<LoadResult> {
    const candidates = this.ambiguous.get(name);
    if (candidates) {
      return {
        status: 'not-found',
        name,
        suggestions: candidates,
        message: `"${name}" names ${candidates.length} skills of different plugins: load one of ${candidates.join(', ')}.`,
      };
    }
    const escaped = this.cache.escaped().find((e) => e.location.name === name);
    if (escaped) {
      return {
        status: 'refused',
        name,
        message: `skill "${name}" is not served: ${escaped.location.path} resolves to ${escaped.target}, outside the repository. Replace the symbolic link with the files.`,
      };
    }
    // In the library but not served: say why, rather than "no skill named" beside a `list` that shows it.
    const [problem] = this.cache.withheld(name) ?? [];
    if (problem) {
      return {
        status: 'refused',
        name,
        message: `skill "${name}" is in the library but not served: ${problem.file}${problem.line ? `:${problem.line}` : ''} ${problem.message}. Fix the file (\`skillgarden validate\` lists every problem).`,
      };
    }
    const archived = await readArchiveInfo({ repoDir: this.options.repoDir, skillsDir: this.options.skillsDir, name });
    if (archived) {
      const when =
        archived.dateSource === 'git' ? archived.archivedAt : `${archived.archivedAt} (folder modification time; no git history)`;
      return {
        status: 'archived',
        name,
        archivedAt: archived.archivedAt,
        dateSource: archived.dateSource,
        message: `skill "${name}" was archived on ${when}; restore it with \`skillgarden restore ${name}\`.`,
      };
    }
    const suggestions = findClosestNames(name, [...this.allNames(), ...this.aliases.keys()]);
    const hint = suggestions.length > 0 ? ` Closest names: ${suggestions.join(', ')}.` : ' List the skills to see every name.';
    return { status: 'not-found', name, suggestions, message: `no skill named "${name}".${hint}` };
  }

  private indexEntries(now: Date): RegistryEntry[] {
    // Pins live in .skillgarden/pins.txt (a person's act, one commit); the frontmatter's `pinned: true` is read too.
    const pins = this.readPins();
    const entries = this.allEntries().map((e) => (pins.has(e.name) && !e.pinned ? { ...e, pinned: true } : e));
    return planIndex({ entries, totals: this.totals, now, awake: this.conditional.awake });
  }

  private readPins(): Set<string> {
    try {
      return parsePins(readFileSync(join(this.options.repoDir, pinsFile), 'utf8'));
    } catch {
      return new Set();
    }
  }

  private allEntries(): RegistryEntry[] {
    return [...this.cache.entries()];
  }

  private allNames(): string[] {
    return this.allEntries().map((e) => e.name);
  }

  private rebuildAliases(): void {
    const { aliases, ambiguous } = planAliases([...this.cache.entries()], (name) => this.cache.entry(name) !== undefined);
    this.aliases = aliases;
    this.ambiguous = ambiguous;
  }
}

function indexFileFor(options: SkillRegistryOptions): string | undefined {
  if (typeof options.indexFile === 'string') return options.indexFile;
  return options.indexFile === false ? undefined : defaultIndexFile(options.repoDir);
}

function sameTotals(a: ReadonlyMap<string, UsageCounters>, b: ReadonlyMap<string, UsageCounters>): boolean {
  if (a.size !== b.size) return false;
  for (const [name, x] of a) {
    const y = b.get(name);
    if (
      !y ||
      x.use_count !== y.use_count ||
      x.last_used_at !== y.last_used_at ||
      x.last_viewed_at !== y.last_viewed_at ||
      x.last_patched_at !== y.last_patched_at
    )
      return false;
  }
  return true;
}
