import type { LedgerEvent, SkillHistory } from '../../core/ledger/history-index.js';
import type { SkillStateRecord } from '../../core/lifecycle/types.js';
import { escapeControl } from '../../core/report/escape-text.js';
import { inactiveAfterDays } from '../../core/usage/index.js';
import type { UsageCounters } from '../../core/usage/types.js';
import type { ListedSkill } from '../../services/curator/list-skills.js';
import type { VendoredSource } from '../../services/vendor/vendored-source.js';

/** What `show` prints: the skill's `list` row, its usage counters, its history and the curator's record (`--json` as is). */
export interface ShowDetail extends ListedSkill {
  usage: UsageCounters | null;
  history: SkillHistory | null;
  state_record: SkillStateRecord | null;
  /** From skills-lock.json, for a vendored skill. */
  vendored?: VendoredSource | null;
}

const stateMeaning: Record<ListedSkill['state'], string> = {
  active: 'curated as usual',
  inactive: `used before, then no use, view or patch (a commit to it counts) for ${inactiveAfterDays} days: left out of the agents' skill index (reminder, MCP list), still loadable`,
  stale: 'marked by the curator after stale_after_days without activity; archived after archive_after_days',
  archived: 'moved, whole, to the archive folder',
};

const event = (e: LedgerEvent | null | undefined): string | undefined =>
  e ? `${e.time.slice(0, 10)}, commit ${e.commit.slice(0, 7)}` : undefined;

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function renderHistory(history: SkillHistory | null): Array<[string, string | undefined]> {
  if (history === null) return [['history', 'none in Git (not committed yet)']];
  const pin = history.pin ? `${history.pin.pinned ? 'pinned' : 'unpinned'} ${event(history.pin)}` : undefined;
  return [
    ['created', `${event(history.created)} by ${history.created.actor}${history.created.source ? `/${history.created.source}` : ''}`],
    ['adopted', event(history.adopted)],
    ['last patched', event(history.lastPatched)],
    ['last archived', event(history.lastArchived)],
    ['last restored', event(history.lastRestored)],
    ['pin', pin],
  ];
}

/** `show NAME` as text: one labelled line per fact, dates as days, commits abbreviated; empty facts left out. */
export function renderShow(detail: ShowDetail): string {
  const usage = detail.usage;
  const record = detail.state_record;
  const rows: Array<[string, string | undefined]> = [
    ['path', escapeControl(detail.path)],
    ['state', `${detail.state}: ${stateMeaning[detail.state]}`],
    ['curator record', record?.state ? `${record.state}${record.since ? ` since ${record.since.slice(0, 10)}` : ''}` : undefined],
    ['provenance', `${detail.provenance}${detail.adopted ? ', adopted' : ''}${detail.pinned ? ' (pinned)' : ''}`],
    ['source', renderVendored(detail.vendored)],
    ['last activity', detail.last_activity_at?.slice(0, 10) ?? 'none yet'],
    [
      'usage',
      usage
        ? `${count(usage.use_count, 'use', 'uses')}, ${count(usage.view_count, 'view', 'views')}, ${count(usage.patch_count, 'patch', 'patches')}; score ${detail.score.toFixed(2)}`
        : 'none recorded',
    ],
    ...renderHistory(detail.history),
  ];
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length));
  return `${escapeControl(detail.name)}\n${shown.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`;
}

const renderBehind = (v: VendoredSource): string =>
  v.behind === undefined
    ? ' (skills-lock.json; `show --check-upstream` says whether it is behind)'
    : v.behind
      ? `; behind its source: ${v.upstream?.commits.length ?? 0} upstream commit(s) to ${v.upstream?.tip.slice(0, 12) ?? '?'} (\`skillgarden update\` brings it up)`
      : '; current with its source';

const renderVendored = (v: VendoredSource | null | undefined): string | undefined =>
  v
    ? `${escapeControl(v.source)}${v.ref ? `@${escapeControl(v.ref)}` : ''}${v.commit ? `, pinned at ${v.commit.slice(0, 12)}` : ''}${v.installedAt ? ` since ${v.installedAt.slice(0, 10)}` : ''}${renderBehind(v)}`
    : undefined;
