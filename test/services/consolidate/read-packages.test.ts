import { describe, expect, it } from 'vitest';
import { readPackages } from '../../../src/services/consolidate/index.js';
import { readLibrary } from '../../../src/services/curator/read-library.js';
import { repoWith } from '../../helpers/repo.js';
import { skillText } from '../../helpers/tmp.js';

const now = new Date('2026-11-30T00:00:00Z');

/** Consolidation plans over the curator's one snapshot (DESIGN §4): provenance read once, so they agree. */
async function bothReaders(dir: string) {
  const snapshot = await readLibrary(dir, { now });
  const curated = readPackages(snapshot);
  const consolidation = Object.fromEntries(curated.skills.map((s) => [s.name, { provenance: s.provenance, adopted: s.adopted }]));
  const curator = Object.fromEntries(
    snapshot.skills.map((s) => [s.name, { provenance: s.provenance, adopted: s.adoptedAt !== undefined }]),
  );
  return { consolidation, curator, curated, snapshot };
}

describe('provenance, read once for consolidation and the curator', () => {
  it("reads Hermes Agent's .hub/lock.json and .bundled_manifest beside skillgarden's own lists", async () => {
    const dir = repoWith({
      'skills/from-hub/SKILL.md': skillText('from-hub'),
      'skills/from-hermes-bundle/SKILL.md': skillText('from-hermes-bundle'),
      'skills/listed-hub/SKILL.md': skillText('listed-hub'),
      'skills/adopted-one/SKILL.md': skillText('adopted-one'),
      'skills/mine/SKILL.md': skillText('mine'),
      'skills/.hub/lock.json': JSON.stringify({ version: 1, installed: { 'from-hub': { source: 'hub/from-hub' } } }),
      'skills/.bundled_manifest': 'from-hermes-bundle:1a2b3c\n',
      '.skillgarden/hub.json': JSON.stringify({ 'listed-hub': { source: 'example/hub' } }),
      '.skillgarden/adopted.txt': 'adopted-one\n',
    });
    const { consolidation, curator } = await bothReaders(dir);
    expect(consolidation).toEqual({
      'from-hub': { provenance: 'hub', adopted: false },
      'from-hermes-bundle': { provenance: 'bundled', adopted: false },
      'listed-hub': { provenance: 'hub', adopted: false },
      'adopted-one': { provenance: 'user', adopted: true },
      mine: { provenance: 'user', adopted: false },
    });
    expect(curator).toEqual(consolidation);
  });

  it('reports a broken hub.json as a finding instead of swallowing it', async () => {
    const dir = repoWith({ 'skills/mine/SKILL.md': skillText('mine'), '.skillgarden/hub.json': '{"mine": ' });
    const { curated, snapshot } = await bothReaders(dir);
    const expected = [expect.objectContaining({ code: 'provenance/bad-file', file: '.skillgarden/hub.json' })];
    expect(curated.findings).toEqual(expected);
    expect(snapshot.findings).toEqual(expected);
  });
});
