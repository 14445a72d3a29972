import { describe, expect, it } from 'vitest';
import type { ConsolidationPlan } from '../../../src/core/consolidate/types.js';
import type { LifecycleDecision } from '../../../src/core/lifecycle/types.js';
import { separateFromUmbrellas } from '../../../src/core/proposals/overlap.js';

type Transition = LifecycleDecision & { kind: 'transition' };

const transition = (name: string, to: Transition['to'] = 'stale'): Transition => ({
  name,
  kind: 'transition',
  from: to === 'archived' ? 'stale' : 'active',
  to,
  anchor: '2026-10-01T00:00:00Z',
  anchorSource: 'created',
  reason: 'unused for 60 days',
});

const umbrella = (into: string, from: string[], demoted: string[] = []): ConsolidationPlan =>
  ({
    kind: 'create',
    into,
    intoDir: `skills/${into}`,
    from,
    demoted,
    reason: '',
    archived: [],
    rewritten: [],
    mentionsLeft: [],
    changes: [],
  }) as unknown as ConsolidationPlan;

describe('proposals never overlap', () => {
  it('holds back the transitions of every skill an umbrella absorbs, demotes or merges into, naming the umbrella', () => {
    const { kept, deferred } = separateFromUmbrellas(
      [transition('git-rebase'), transition('git-bisect', 'archived'), transition('tidy'), transition('deploy'), transition('pdf-notes')],
      [umbrella('git-workflows', ['git-rebase', 'git-bisect']), { ...umbrella('deploy', ['deploy-canary'], ['pdf-notes']), kind: 'merge' }],
    );
    expect(kept.map((t) => t.name)).toEqual(['tidy']);
    expect(deferred).toEqual([
      { skill: 'git-rebase', from: 'active', to: 'stale', umbrella: 'git-workflows' },
      { skill: 'git-bisect', from: 'stale', to: 'archived', umbrella: 'git-workflows' },
      { skill: 'deploy', from: 'active', to: 'stale', umbrella: 'deploy' },
      { skill: 'pdf-notes', from: 'active', to: 'stale', umbrella: 'deploy' },
    ]);
  });

  it('keeps every transition when there is no umbrella proposal', () => {
    const all = [transition('a'), transition('b', 'archived')];
    expect(separateFromUmbrellas(all, [])).toEqual({ kept: all, deferred: [] });
  });
});
