import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, lastTrailers } from '../helpers/repo.js';
import { skillText, writeTree } from '../helpers/tmp.js';
import { connectClient } from './spawn-server.js';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as TextResult).content.map((c) => c.text).join('');

// #16: a write held up (here by a lock another git process holds, as a long `git commit` or a hook would) must not
// stop the server answering reads meanwhile. Ordering, not timing: the reads are answered while the lock is still
// held, so the write cannot have finished yet.
describe('skillgarden mcp: a slow write does not block reads', () => {
  let repo: string;
  let client: Client;

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'skillgarden-mcp-slow-'));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.name', 'Ada Test');
    git(repo, 'config', 'user.email', 'ada@example.com');
    writeTree(repo, { 'skills/deploy/SKILL.md': skillText('deploy'), 'skills/deploy/references/steps.md': 'Step one.\n' });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial library');
    ({ client } = await connectClient(repo));
  });

  afterAll(async () => {
    await client?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('answers skills_list and skill_view while a skill_manage write waits on a held git lock, then the write lands', async () => {
    const lock = join(repo, '.git', 'index.lock');
    writeFileSync(lock, '');
    let writeDone = false;
    const write = client
      .callTool({ name: 'skill_manage', arguments: { action: 'create', name: 'release-notes', content: skillText('release-notes') } })
      .finally(() => (writeDone = true));
    // Let the request reach the server before the reads.
    await client.ping();
    const list = await client.callTool({ name: 'skills_list', arguments: {} });
    const view = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy', file_path: 'references/steps.md' } });
    const resources = await client.listResources();
    expect(textOf(list)).toContain('deploy');
    expect(textOf(view)).toContain('Step one.');
    expect(resources.resources.length).toBeGreaterThan(0);
    expect(existsSync(lock)).toBe(true);
    expect(writeDone).toBe(false);

    rmSync(lock);
    const created = await write;
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(lastTrailers(repo)).toContain('Skill-Name: release-notes');
  });
});
