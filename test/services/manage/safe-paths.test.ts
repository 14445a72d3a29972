import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src/ledger/open-ledger.js';
import { writeSkillFile, type ManageContext } from '../../../src/services/manage/index.js';
import { git, repoWith, subjects } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

describe('manage refuses paths git would refuse somewhere', () => {
  it.each(['references/git~1/config', 'references/.g\u200cit/config', 'references/CON', 'references/notes.md::$DATA', 'assets/a|b.png'])(
    'write-file %j: refused, nothing committed, the repository stays fsck-clean',
    async (path) => {
      const dir = repoWith({ 'skills/pdf/SKILL.md': skillText('pdf') });
      const ledger = await openLedger(dir);
      const ctx: ManageContext = { repoDir: dir, ledger, skillsDir: 'skills', profile: 'portable', actor: 'agent', source: 'foreground' };
      const error = await writeSkillFile(ctx, { name: 'pdf', path, content: 'x\n' }).then(
        () => undefined,
        (e: { code?: string; message: string }) => e,
      );
      expect(error?.code).toBe('manage/bad-path');
      expect(error?.message).toContain(path);
      expect(subjects(dir)).toEqual(['initial library']);
      expect(() => git(dir, 'fsck', '--strict', '--no-progress')).not.toThrow();
      await ledger.close();
    },
  );
});
