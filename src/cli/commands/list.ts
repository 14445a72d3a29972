import { SkillgardenError } from '../../core/errors.js';
import { escapeControl } from '../../core/report/escape-text.js';
import { requireSkills } from '../../services/library.js';
import { listSkills, type ListedSkill } from '../../services/curator/list-skills.js';
import { exitCodes, type Command } from '../context.js';
import { renderShow, type ShowDetail } from './render-show.js';
import { ambiguousIds, matchSkillName } from '../../core/layout/skill-name-match.js';
import { plainName } from '../../core/layout/skill-roots.js';
import { checkVendoredSources, readVendoredSources, type VendoredSource } from '../../services/vendor/vendored-source.js';

export const listCommand: Command = {
  name: 'list',
  summary: 'skills with state, provenance, usage and score (archived included)',
  usage: "list [--allow-empty] [--check-upstream]   (--check-upstream: fetch each vendored skill's source to say whether it is behind)",
  options: { 'allow-empty': { type: 'boolean' }, 'check-upstream': { type: 'boolean' } },
  async run({ io, global, values }) {
    const { skills, snapshot } = await listSkills(global.repo, global.now, { warn: (m) => io.stderr.write(m) });
    // Nothing silently empty: no skill found anywhere (archived ones count) is an error saying where it looked.
    if (skills.length === 0) requireSkills(snapshot.library, { allowEmpty: values['allow-empty'] === true });
    // Offline unless asked: where a vendored skill comes from is in the lock; whether it is behind needs a fetch.
    let vendored = readVendoredSources(global.repo);
    if (values['check-upstream'] === true && vendored.size > 0)
      vendored = await checkVendoredSources(global.repo, vendored, new Map(skills.map((s) => [plainName(s.name), s.path])));
    const rows = skills.map((s) => withSource(s, vendored.get(plainName(s.name))));
    io.stdout.write(global.json ? `${JSON.stringify({ skills: rows }, null, 2)}\n` : renderList(rows));
    return exitCodes.ok;
  },
};

export const showCommand: Command = {
  name: 'show',
  summary: 'one skill: state, provenance, usage, history',
  usage: "show NAME [--check-upstream]   (--check-upstream: fetch a vendored skill's source to say whether it is behind)",
  options: { 'check-upstream': { type: 'boolean' } },
  async run({ io, global, positionals, values }) {
    const [name] = positionals;
    if (!name || positionals.length > 1) throw new SkillgardenError('cli/usage', 'show takes exactly one skill name');
    const { skills, snapshot } = await listSkills(global.repo, global.now, { warn: (m) => io.stderr.write(m) });
    const matches = matchSkillName(
      skills.map((s) => ({ skill: s, id: s.name, name: plainName(s.name) })),
      name,
    );
    const ids = ambiguousIds(matches);
    if (ids)
      throw new SkillgardenError(
        'show/ambiguous',
        `"${name}" names ${ids.length} skills of different plugins: show one of ${ids.join(', ')}`,
        {
          data: { exitCode: 1, candidates: ids },
        },
      );
    const skill = matches[0]?.skill;
    // An empty library says where it looked, rather than that this one name is missing.
    if (!skill && skills.length === 0) requireSkills(snapshot.library);
    if (!skill)
      throw new SkillgardenError('show/not-found', `no skill named "${name}"; \`skillgarden list\` shows them all`, {
        data: { exitCode: 1 },
      });
    // History and state are kept by the folder's name; usage as the client names the skill.
    const folder = plainName(skill.name);
    const source = readVendoredSources(global.repo).get(folder);
    const vendored =
      source && values['check-upstream'] === true
        ? (await checkVendoredSources(global.repo, new Map([[folder, source]]), new Map([[folder, skill.path]]))).get(folder)
        : source;
    const detail: ShowDetail = {
      ...skill,
      usage: snapshot.usage.totals.get(skill.name) ?? null,
      history: snapshot.history.skills[folder] ?? null,
      state_record: snapshot.state.skills[folder] ?? null,
      vendored: vendored ?? null,
    };
    io.stdout.write(global.json ? `${JSON.stringify(detail, null, 2)}\n` : renderShow(detail));
    return exitCodes.ok;
  },
};

/** A `list` row: a vendored skill's row says where it comes from, and, checked, whether it is behind. */
type ListRow = ListedSkill & { source?: string; behind?: boolean };

function withSource(skill: ListedSkill, vendored: VendoredSource | undefined): ListRow {
  if (!vendored) return skill;
  const source = `${vendored.source}${vendored.ref ? `@${vendored.ref}` : ''}`;
  return { ...skill, source, ...(vendored.behind === undefined ? {} : { behind: vendored.behind }) };
}

function renderList(skills: readonly ListRow[]): string {
  const rows = skills.map((s) => [
    escapeControl(s.name),
    s.state,
    s.provenance +
      (s.pinned ? ' (pinned)' : '') +
      (s.source === undefined ? '' : ` ← ${escapeControl(s.source)}`) +
      (s.behind === undefined ? '' : s.behind ? ' (behind)' : ' (current)'),
    String(s.use_count),
    s.last_activity_at?.slice(0, 10) ?? '—',
    s.score.toFixed(2),
    escapeControl(s.path),
  ]);
  const header = ['name', 'state', 'provenance', 'uses', 'last activity', 'score', 'path'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n${skills.length} skill(s)\n`;
}
