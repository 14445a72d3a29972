import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildDraftName, buildUniqueName } from '../../../src/core/patterns/draft-name.js';
import { draftPatterns, findCoveringSkill } from '../../../src/core/patterns/draft.js';
import type { Pattern } from '../../../src/core/patterns/types.js';
import { checkSchema } from '../../../src/core/schema/index.js';

const pattern: Pattern = {
  tools: ['Grep', 'Read', 'Edit', 'Bash:npm'],
  sessions: 5,
  confidence: 0.8,
  fingerprint: '0123456789abcdef',
};

function frontmatterOf(text: string): Record<string, unknown> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
  return parse(match?.[1] ?? '') as Record<string, unknown>;
}

describe('buildDraftName', () => {
  it.each([
    [['search_papers', 'download_paper', 'rag_search'], 'search-download-rag'],
    [['Read', 'Edit', 'Bash:npm'], 'read-edit-npm'],
    [['find_file', 'open', 'edit'], 'find-open-edit'],
    [['Read', 'Edit', 'Read', 'Edit'], 'read-edit'],
    [['mcp__github__create_issue', 'mcp__github__add_labels'], 'create-add'],
    [['WebSearch', 'WebFetch'], 'web'],
    [['___', '!!!'], 'tool-sequence'],
  ])('%j → %s', (tools, name) => {
    expect(buildDraftName(tools)).toBe(name);
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('stays within 64 characters', () => {
    const tools = Array.from({ length: 8 }, (_, i) => `verylongtoolname${i}_x`);
    const name = buildDraftName(tools);
    expect(name.length).toBeLessThanOrEqual(64);
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('numbers a name that is taken', () => {
    expect(buildUniqueName('read-edit', new Set(['read-edit', 'read-edit-2']))).toBe('read-edit-3');
    expect(buildUniqueName('x'.repeat(64), new Set(['x'.repeat(64)])).length).toBeLessThanOrEqual(64);
  });
});

describe('draftPatterns', () => {
  it('drafts a SKILL.md that is valid under the strict spec profile', () => {
    const [detected] = draftPatterns([pattern], []);
    const text = detected?.draft?.text ?? '';
    const data = frontmatterOf(text);
    expect(Object.keys(data)).toEqual(['name', 'description', 'metadata']);
    expect(data.metadata).toMatchObject({
      version: '0.1.0',
      pinned: 'false',
      fingerprint: pattern.fingerprint,
      sessions: '5',
    });
    expect(Object.values(data.metadata as object).every((v) => typeof v === 'string')).toBe(true);
    const findings = checkSchema({
      file: 'SKILL.md',
      data,
      profile: 'spec',
      locateKey: () => undefined,
      locateValue: () => undefined,
    });
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(data.description).not.toMatch(/[<>]/);
    expect(String(data.description).length).toBeLessThanOrEqual(1024);
  });

  it('writes one numbered step per call with the typical arguments', () => {
    const shapes = new Map([
      ['Read', 'file_path,limit'],
      ['Grep', 'path,pattern'],
    ]);
    const text = draftPatterns([pattern], [], { shapes })[0]?.draft?.text ?? '';
    expect(text).toContain('1. Call `Grep` (typical arguments: `path`, `pattern`).');
    expect(text).toContain('2. Call `Read` (typical arguments: `file_path`, `limit`).');
    expect(text).toContain('3. Call `Edit`.');
    expect(text).toContain('4. Run `npm …` with `Bash`.');
  });

  it('puts version, pinned and when_to_use at the top under the runtime profile', () => {
    const data = frontmatterOf(draftPatterns([pattern], [], { profile: 'runtime' })[0]?.draft?.text ?? '');
    expect(data).toMatchObject({ version: '0.1.0', pinned: false });
    expect(String(data.when_to_use)).toContain('read files');
  });

  it('does not propose a pattern a skill already records or fully names', () => {
    const recorded = {
      name: 'fix-flow',
      text: `---\nname: fix-flow\nmetadata:\n  fingerprint: ${pattern.fingerprint}\n---\nbody`,
    };
    const named = {
      name: 'edit-loop',
      text: '---\nname: edit-loop\n---\nUse Grep, then Read and Edit, then run npm test.',
    };
    const partial = {
      name: 'other',
      text: '---\nname: other\n---\nUse Grep and Read.',
    };
    expect(findCoveringSkill(pattern, [recorded])).toBe('fix-flow');
    expect(findCoveringSkill(pattern, [named])).toBe('edit-loop');
    expect(findCoveringSkill(pattern, [partial])).toBeUndefined();
    const frontmatterOnly = {
      name: 'fm',
      text: '---\nname: fm\ndescription: Grep Read Edit npm\n---\nnothing here',
    };
    expect(findCoveringSkill(pattern, [frontmatterOnly])).toBeUndefined();
    const [detected] = draftPatterns([pattern], [partial, named]);
    expect(detected).toMatchObject({ coveredBy: 'edit-loop' });
    expect(detected?.draft).toBeUndefined();
  });

  it('never reuses an existing or earlier draft name', () => {
    const twin: Pattern = {
      ...pattern,
      tools: ['Grep', 'Read', 'Edit', 'Bash:npm', 'Read'],
      fingerprint: 'fedcba9876543210',
    };
    const drafts = draftPatterns([pattern, twin], [{ name: 'grep-read-edit-npm', text: 'unrelated' }]);
    expect(drafts.map((d) => d.draft?.name)).toEqual(['grep-read-edit-npm-2', 'grep-read-edit-npm-3']);
  });
});
