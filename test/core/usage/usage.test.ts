import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { applyBump, mergeUsage, normalizeTime, parseHermesUsage, parseUsageFile } from '../../../src/core/usage/index.js';

const now = new Date('2026-11-30T00:00:00Z');
const parse = (value: unknown) => parseUsageFile(JSON.stringify(value), { path: '.skillgarden/usage/a.json', writer: 'a', now });

describe('parseUsageFile', () => {
  it('reads counters and normalises times to UTC', () => {
    const { file, findings } = parse({
      version: 1,
      writer: 'a',
      skills: { x: { use_count: 3, last_used_at: '2026-05-01T12:00:00+02:00' } },
    });
    expect(findings).toEqual([]);
    expect(file?.skills.x).toEqual({ use_count: 3, last_used_at: '2026-05-01T10:00:00Z' });
  });

  it.each([
    ['a count that is not a number', { use_count: '7' }, 'usage/bad-count', {}],
    ['a negative count (clamped to 0)', { use_count: -2 }, 'usage/count-out-of-range', { use_count: 0 }],
    ['a fractional count (rounded down)', { view_count: 1.5 }, 'usage/count-out-of-range', { view_count: 1 }],
    [
      'a huge count (clamped to the most one writer may count)',
      { use_count: 1e308 },
      'usage/count-out-of-range',
      { use_count: 1_000_000_000 },
    ],
    ['a future time', { last_used_at: '2027-01-01T00:00:00Z' }, 'usage/future-time', {}],
    ['a time that is not a time', { last_used_at: 'yesterday' }, 'usage/bad-time', {}],
  ])('reads %s as a warning, keeps the rest', (_label, entry, code, kept) => {
    const { file, findings } = parse({ version: 1, writer: 'a', skills: { x: { ...entry, patch_count: 1 } } });
    expect(findings.map((f) => f.code)).toEqual([code]);
    expect(file?.skills.x).toEqual({ ...kept, patch_count: 1 });
  });

  it('takes a time without a zone as UTC', () => {
    expect(
      parse({ version: 1, writer: 'a', skills: { x: { last_viewed_at: '2026-05-01T10:00:00' } } }).file?.skills.x?.last_viewed_at,
    ).toBe('2026-05-01T10:00:00Z');
    expect(normalizeTime('2026-05-01 10:00')).toBe('2026-05-01T10:00:00Z');
  });

  it.each([
    ['not JSON', '{"version": 1,', 'usage/not-json'],
    ['the wrong shape', '[1, 2]', 'usage/bad-shape'],
    ['a wrong version', '{"version": 2, "skills": {}}', 'usage/bad-shape'],
  ])('refuses a file that is %s (the caller sets it aside)', (_label, text, code) => {
    const { file, findings } = parseUsageFile(text, { path: 'p', writer: 'a', now });
    expect(file).toBeUndefined();
    expect(findings[0]?.code).toBe(code);
  });

  it('warns when a file names another writer', () => {
    expect(parse({ version: 1, writer: 'b', skills: {} }).findings.map((f) => f.code)).toEqual(['usage/writer-mismatch']);
  });

  it("reads Hermes Agent's .usage.json", () => {
    const { file } = parseHermesUsage(JSON.stringify({ arxiv: { use_count: 4, last_used_at: '2026-11-01T00:00:00Z' } }), {
      path: 'skills/.usage.json',
      now,
    });
    expect(file?.skills.arxiv).toEqual({ use_count: 4, last_used_at: '2026-11-01T00:00:00Z' });
  });
});

describe('mergeUsage', () => {
  it('sums counts and keeps the latest time, whatever the order of the files', () => {
    const a = { skills: { x: { use_count: 2, last_used_at: '2026-01-01T00:00:00Z' } } };
    const b = { skills: { x: { use_count: 3, view_count: 1, last_used_at: '2026-03-01T00:00:00Z' }, y: { use_count: 1 } } };
    const expected = { use_count: 5, view_count: 1, patch_count: 0, last_used_at: '2026-03-01T00:00:00Z' };
    expect(mergeUsage([a, b]).get('x')).toEqual(expected);
    expect(mergeUsage([b, a]).get('x')).toEqual(expected);
  });

  it('is a grow-only counter: merging is commutative and never loses a bump', () => {
    const counters = fc.record({ use_count: fc.nat(100), view_count: fc.nat(100) });
    fc.assert(
      fc.property(fc.array(counters, { maxLength: 8 }), (files) => {
        const merged = mergeUsage(files.map((c) => ({ skills: { s: c } })));
        const reversed = mergeUsage([...files].reverse().map((c) => ({ skills: { s: c } })));
        expect(merged.get('s')).toEqual(reversed.get('s'));
        expect(merged.get('s')?.use_count ?? 0).toBe(files.reduce((n, c) => n + c.use_count, 0));
      }),
    );
  });
});

describe('bumps and scores', () => {
  it('records a use after a patch as a reuse after patch, once per patch generation', () => {
    let c = applyBump({}, 'use', '2026-01-01T00:00:00Z', 0);
    expect(c.reuse_after_patch_count).toBeUndefined();
    c = applyBump(c, 'use', '2026-01-02T00:00:00Z', 1);
    c = applyBump(c, 'use', '2026-01-03T00:00:00Z', 1);
    expect(c).toMatchObject({
      use_count: 3,
      reuse_after_patch_count: 1,
      last_reused_patch_generation: 1,
      last_used_at: '2026-01-03T00:00:00Z',
    });
  });
});
