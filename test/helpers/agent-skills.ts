import { openLedger } from '../../src/ledger/open-ledger.js';
import { createSkill } from '../../src/services/manage/index.js';

/**
 * Creates skills in `dir` as an agent's background writes do (`skills/<name>/SKILL.md`, one ledger commit each,
 * dated `at`): the skills the curator may touch. In the order given.
 */
export async function createAgentSkills(dir: string, skills: Record<string, string>, at: Date): Promise<void> {
  const ledger = await openLedger(dir, { now: () => at });
  try {
    const ctx = {
      repoDir: dir,
      ledger,
      skillsDir: 'skills',
      profile: 'portable' as const,
      actor: 'agent' as const,
      source: 'background' as const,
    };
    for (const [name, content] of Object.entries(skills)) await createSkill(ctx, { name, content });
  } finally {
    await ledger.close();
  }
}
