import type { AnchorSource, LifecycleDecision, LifecyclePlan, LifecycleSettings, LifecycleSkill, LifecycleState } from './types.js';

const dayMs = 86_400_000;

/** Agent-created and adopted skills always; bundled ones when `prune_bundled`; hub and a person's never. */
export function isCurated(
  skill: Pick<LifecycleSkill, 'provenance' | 'adoptedAt'>,
  settings: Pick<LifecycleSettings, 'prune_bundled'>,
): boolean {
  if (skill.adoptedAt !== undefined) return skill.provenance !== 'hub';
  if (skill.provenance === 'agent') return true;
  return skill.provenance === 'bundled' && settings.prune_bundled;
}

/** Skills that came under management after their creation get a seed record, so their clock starts when the curator first sees them. */
export function needsSeed(skill: LifecycleSkill): boolean {
  return skill.record?.seeded_at === undefined && (skill.provenance === 'bundled' || skill.adoptedAt !== undefined);
}

/**
 * The lifecycle pass of DESIGN §6, in its exact order, one decision per
 * skill, linear in the number of skills. Cutoffs are inclusive: exactly 30
 * days without activity is stale, exactly 90 archived.
 */
export function planLifecycle(skills: readonly LifecycleSkill[], settings: LifecycleSettings, now: Date): LifecyclePlan {
  const nowIso = now.toISOString();
  const staleCutoff = now.getTime() - settings.stale_after_days * dayMs;
  const archiveCutoff = now.getTime() - settings.archive_after_days * dayMs;
  const protectedNames = new Set(settings.protected);
  const plan: LifecyclePlan = { decisions: [], seeds: [], counts: { checked: 0, marked_stale: 0, archived: 0, reactivated: 0, seeded: 0 } };

  for (const skill of skills) {
    const state: LifecycleState = skill.record?.state === 'stale' ? 'stale' : 'active';
    const skip = (reason: Extract<LifecycleDecision, { kind: 'skip' }>['reason'], detail: string, anchor?: string) =>
      plan.decisions.push({ name: skill.name, kind: 'skip', state, reason, detail, ...(anchor ? { anchor } : {}) });
    if (!isCurated(skill, settings)) {
      skip('not-curated', `${skill.provenance} skill: the curator never touches it`);
      continue;
    }
    plan.counts.checked++;
    if (skill.pinned) {
      skip('pinned', 'pinned by a person');
      continue;
    }
    if (skill.referenced) {
      skip('referenced', 'named in a file matched by the references globs');
      continue;
    }
    let seededAt = skill.record?.seeded_at;
    if (needsSeed(skill)) {
      seededAt = nowIso;
      plan.seeds.push(skill.name);
      plan.counts.seeded++;
    }
    const { anchor, source, used } = findAnchor(skill, seededAt, nowIso);
    const at = Date.parse(anchor);
    const links = skill.linkedFrom ?? [];
    const transition = (to: LifecycleState, reason: string) =>
      plan.decisions.push({ name: skill.name, kind: 'transition', from: state, to, anchor, anchorSource: source, reason });

    if (!used && at > staleCutoff) {
      if (state === 'stale') {
        transition(
          'active',
          `never used, and its clock (${source} ${day(anchor)}) is within ${settings.stale_after_days} days: no use is not evidence of staleness`,
        );
        plan.counts.reactivated++;
      } else skip('recent', `never used, ${source} ${day(anchor)}`, anchor);
    } else if (at <= staleCutoff && (skill.missed ?? 0) > 0) {
      // One miss is the procedure done by hand: activity a use would have shown, had the listing brought it up.
      skip('needed', `${skill.missed} session(s) needed it without loading it: not idle, so not stale`, anchor);
    } else if (at <= archiveCutoff && !protectedNames.has(skill.name) && links.length === 0) {
      transition('archived', `no activity since ${day(anchor)} (${source}): ${settings.archive_after_days} days or more`);
      plan.counts.archived++;
    } else if (at <= staleCutoff && state === 'active') {
      const note = at > archiveCutoff ? '' : links.length > 0 ? ` (not archived: ${linkedNote(links)})` : ' (protected: never archived)';
      transition('stale', `no activity since ${day(anchor)} (${source}): ${settings.stale_after_days} days or more${note}`);
      plan.counts.marked_stale++;
    } else if (at > staleCutoff && state === 'stale') {
      transition('active', `active again: last ${source} ${day(anchor)}`);
      plan.counts.reactivated++;
    } else {
      const held = at <= archiveCutoff && links.length > 0 ? `; not archived: ${linkedNote(links)}` : '';
      skip('unchanged', `${state}, last ${source} ${day(anchor)}${held}`, anchor);
    }
  }
  return plan;
}

/** Why a linked skill stays: the links that would point at nothing, and what a person does to let it go. */
function linkedNote(links: readonly string[]): string {
  const shown = links.slice(0, 3).join(', ') + (links.length > 3 ? `, … (+${links.length - 3})` : '');
  return `${shown} ${links.length === 1 ? 'links' : 'link'} to it; remove the link${links.length === 1 ? '' : 's'} to let it be archived`;
}

/** The latest activity (use, view or patch), else the start of its clock (creation, adoption or seeding, whichever is latest). */
function findAnchor(
  skill: LifecycleSkill,
  seededAt: string | undefined,
  nowIso: string,
): { anchor: string; source: AnchorSource; used: boolean } {
  const candidates: [string | undefined, AnchorSource][] = [
    [skill.usage?.last_used_at, 'use'],
    [skill.usage?.last_viewed_at, 'view'],
    [skill.usage?.last_patched_at, 'patch'],
  ];
  const clock: [string | undefined, AnchorSource][] = [
    [skill.createdAt, 'created'],
    [skill.adoptedAt, 'adopted'],
    [seededAt, 'seeded'],
  ];
  const latest = (list: [string | undefined, AnchorSource][]) =>
    list.filter((c): c is [string, AnchorSource] => c[0] !== undefined).sort((a, b) => Date.parse(b[0]) - Date.parse(a[0]))[0];
  const activity = latest(candidates);
  const start = latest(clock);
  // A clock that started after the last activity (an adoption, a seed) wins: the skill was not managed before.
  const best = activity && (!start || Date.parse(activity[0]) >= Date.parse(start[0])) ? activity : start;
  return best ? { anchor: best[0], source: best[1], used: activity !== undefined } : { anchor: nowIso, source: 'seeded', used: false };
}

function day(iso: string): string {
  return iso.slice(0, 10);
}
