import { SkillgardenError } from '../../core/errors.js';
import { requireConfig } from '../../services/curator/read-library.js';
import { bumpUsage, defaultWriterId, flushUsage, sanitizeWriter, showUsage } from '../../services/usage.js';
import { exitCodes, type Command } from '../context.js';
import { openRepoLedger } from '../open-repo.js';
import { openLibrary, readLibraryRoots } from '../../services/library.js';
import { importUsage } from '../../services/usage-import.js';
import { resolve } from 'node:path';
import type { CommandContext } from '../context.js';

/** Imported uses count under their own writer by default: they are the agent's record, not this machine's bumps. */
const importWriter = 'claude-code-otel';

async function runImport(context: CommandContext, args: readonly string[], skillsDir: readonly string[]): Promise<number> {
  const { io, global, values } = context;
  if (args.length !== 1) throw new SkillgardenError('cli/usage', 'usage import takes one FILE: an OTLP JSON logs export');
  const writer = typeof values.writer === 'string' ? sanitizeWriter(values.writer) : importWriter;
  const ledger = await openRepoLedger(context);
  try {
    const file = resolve(global.repo, args[0] as string);
    const result = await importUsage({ repoDir: global.repo, ledger, skillsDir, file, writer, now: global.now });
    if (global.json) io.stdout.write(`${JSON.stringify({ writer, ...result }, null, 2)}\n`);
    else {
      for (const p of result.problems) io.stderr.write(`${args[0] as string}:${p.line}: skipped: ${p.reason}\n`);
      const commit = result.flush.commit ? ` in ${result.flush.commit.slice(0, 12)}` : '';
      io.stdout.write(
        `imported ${result.imported} use(s) from ${result.sessions} session(s) as writer ${writer}${commit}; ${result.alreadyCounted} already counted, ${result.otherEvents} other event(s)\n`,
      );
    }
    return exitCodes.ok;
  } finally {
    await ledger.close();
  }
}

export const usageCommand: Command = {
  name: 'usage',
  summary: 'telemetry: bump a use or view (batched locally), flush as one commit, show totals',
  usage:
    'usage bump NAME --use|--view|--patch [--writer ID] | usage flush [--writer ID] | usage show | usage import FILE [--writer ID] (Claude Code OpenTelemetry skill_activated events, OTLP JSON)',
  options: { use: { type: 'boolean' }, view: { type: 'boolean' }, patch: { type: 'boolean' }, writer: { type: 'string' } },
  async run(context) {
    const { io, global, positionals, values } = context;
    const [sub, ...args] = positionals;
    const writer = typeof values.writer === 'string' ? sanitizeWriter(values.writer) : defaultWriterId(io.env);
    const config = requireConfig(global.repo);
    if (sub === 'bump') {
      const kinds = (['use', 'view', 'patch'] as const).filter((k) => values[k] === true);
      if (args.length !== 1 || kinds.length !== 1)
        throw new SkillgardenError('cli/usage', 'usage bump takes one NAME and exactly one of --use, --view, --patch');
      await bumpUsage(global.repo, writer, {
        skill: args[0] as string,
        kind: kinds[0] as 'use',
        at: global.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      });
      if (!global.json)
        io.stdout.write(`recorded a ${kinds[0]} of ${args[0]} for writer ${writer} (run \`skillgarden usage flush\` to commit)\n`);
      else io.stdout.write(`${JSON.stringify({ writer, skill: args[0], kind: kinds[0] })}\n`);
      return exitCodes.ok;
    }
    if (sub === 'flush') {
      const ledger = await openRepoLedger(context);
      try {
        const result = await flushUsage({
          repoDir: global.repo,
          ledger,
          writer,
          skillsDir: readLibraryRoots(global.repo, config.skills_dir),
          now: global.now,
        });
        io.stdout.write(
          global.json
            ? `${JSON.stringify(result, null, 2)}\n`
            : result.commit
              ? `committed ${result.bumps} bump(s) over ${result.skills.length} skill(s) in ${result.commit.slice(0, 12)}${result.quarantined ? `; the unreadable old file was moved to ${result.quarantined}` : ''}\n`
              : 'nothing to flush\n',
        );
      } finally {
        await ledger.close();
      }
      return exitCodes.ok;
    }
    if (sub === 'show') {
      const library = openLibrary(global.repo, config.skills_dir);
      const skills = [...library.skills, ...library.archived].map((l) => l.id);
      const shown = showUsage(global.repo, { skillsDir: readLibraryRoots(global.repo, config.skills_dir), now: global.now, skills });
      if (global.json) io.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
      else {
        const lines = Object.entries(shown.totals).map(
          ([name, c]) =>
            `${name}: ${c.use_count} use(s), ${c.view_count} view(s), ${c.patch_count} patch(es), last used ${c.last_used_at ?? 'never'}`,
        );
        for (const f of shown.findings) lines.push(`${f.severity} ${f.code} ${f.file}: ${f.message}`);
        io.stdout.write(
          `${lines.join('\n')}\n${shown.writers.length} writer file(s)${shown.quarantined.length ? `, ${shown.quarantined.length} set aside` : ''}\n`,
        );
      }
      return exitCodes.ok;
    }
    if (sub === 'import') return runImport(context, args, readLibraryRoots(global.repo, config.skills_dir));
    throw new SkillgardenError('cli/usage', `unknown usage action "${sub ?? ''}"; choose bump, flush, show or import`);
  },
};
