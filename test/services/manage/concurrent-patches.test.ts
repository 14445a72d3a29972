import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LedgerBackend } from '../../../src/ledger/ledger.js';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { patchSkill, type ManageContext } from '../../../src/services/manage/index.js';
import { git, repoWith, status } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const lines = Array.from({ length: 40 }, (_, i) => `${i + 1}. Step ${i + 1} of the procedure.`);

describe.each(['isomorphic-git', 'system-git'] as const)('agents patching one skill at once (%s)', (backend: LedgerBackend) => {
  it('two writers, 20 patches each of distinct lines, all at once: every patch lands, each one commit, nothing lost', async () => {
    const dir = repoWith({ 'skills/shared/SKILL.md': skillText('shared', '', `# Shared\n\n${lines.join('\n')}\n`) });
    const writers = await Promise.all([openLedger(dir, { backend }), openLedger(dir, { backend })]);
    const context = (ledger: ManageContext['ledger']): ManageContext => ({
      repoDir: dir,
      ledger,
      skillsDir: 'skills',
      profile: 'portable',
      actor: 'agent',
      source: 'foreground',
    });
    try {
      const patches = lines.map((line, i) =>
        patchSkill(context(writers[i % 2]!), { name: 'shared', old: line, new: line.replace('Step', 'Checked step') }),
      );
      const results = await Promise.allSettled(patches);
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
      expect(refused).toEqual([]);
    } finally {
      await Promise.all(writers.map((w) => w.close()));
    }
    const text = readFileSync(join(dir, 'skills/shared/SKILL.md'), 'utf8');
    for (let i = 1; i <= 40; i += 1) expect(text).toContain(`${i}. Checked step ${i} of the procedure.`);
    expect(git(dir, 'rev-list', '--count', 'HEAD').trim()).toBe('41');
    expect(status(dir)).toBe('');
  });

  it('a patch whose text another write removed meanwhile is refused, saying so', async () => {
    const dir = repoWith({ 'skills/shared/SKILL.md': skillText('shared', '', `# Shared\n\n${lines.slice(0, 3).join('\n')}\n`) });
    const [a, b] = await Promise.all([openLedger(dir, { backend }), openLedger(dir, { backend })]);
    const ctx = (ledger: ManageContext['ledger']): ManageContext => ({
      repoDir: dir,
      ledger,
      skillsDir: 'skills',
      profile: 'portable',
      actor: 'agent',
      source: 'foreground',
    });
    try {
      const both = await Promise.allSettled([
        patchSkill(ctx(a), { name: 'shared', old: lines[1]!, new: '2. Rewritten by the first writer.' }),
        patchSkill(ctx(b), { name: 'shared', old: lines[1]!, new: '2. Rewritten by the second writer.' }),
      ]);
      const outcomes = both.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code)).sort();
      expect(outcomes).toEqual(['manage/no-match', 'ok']);
      const message = both.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []))[0];
      expect(message).toContain('another write changed it since this patch began');
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
