import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PromptListChangedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, lastTrailers } from '../helpers/repo.js';
import { skillText, writeTree } from '../helpers/tmp.js';
import { connectClient } from './spawn-server.js';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as TextResult).content.map((c) => c.text).join('');

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !check()) await new Promise((r) => setTimeout(r, 20));
  return check();
}

describe('skillgarden mcp (stdio, real client)', () => {
  let repo: string;
  let client: Client;
  let stderr: () => string;
  const notices = { tools: 0, prompts: 0 };

  beforeAll(async () => {
    // Not tempDir(): that folder is removed after each test, and this server lives for the whole suite.
    repo = mkdtempSync(join(tmpdir(), 'skillgarden-mcp-'));
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'config', 'user.name', 'Ada Test');
    git(repo, 'config', 'user.email', 'ada@example.com');
    writeTree(repo, {
      'skills/deploy/SKILL.md': skillText('deploy', 'argument-hint: "[env]"\n', 'Deploy to $ARGUMENTS from ${SKILL_DIR}.\n'),
      'skills/auto/SKILL.md': skillText('auto', 'user-invocable: false\n'),
      'skills/deploy/references/steps.md': 'Step one.\n',
    });
    const outside = join(repo, 'secret.txt');
    writeFileSync(outside, 'not for agents\n');
    symlinkSync(outside, join(repo, 'skills/deploy/references/leak.md'));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'initial library');
    ({ client, stderr } = await connectClient(repo));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void notices.tools++);
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => void notices.prompts++);
  });

  afterAll(async () => {
    await client?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('lists the four tools, with the skill index in skill_view', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['skill_evidence', 'skill_manage', 'skill_usage', 'skill_view', 'skills_list']);
    const view = tools.find((t) => t.name === 'skill_view');
    expect(view?.description).toContain('- deploy [env]: Does deploy things.');
    const manage = tools.find((t) => t.name === 'skill_manage');
    expect(manage?.inputSchema.properties).toHaveProperty('old_string');
  });

  it('exposes user-invocable skills as prompts', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['deploy']);
    expect(prompts[0]?.arguments?.[0]?.description).toBe('[env]');
    const prompt = await client.getPrompt({ name: 'deploy', arguments: { arguments: 'staging' } });
    const message = prompt.messages[0]?.content as { text: string };
    expect(message.text).toContain(`Deploy to staging from ${join(repo, 'skills', 'deploy')}.`);
    await expect(client.getPrompt({ name: 'auto' })).rejects.toThrow(/not a command a user can invoke/);
  });

  it('views a skill and a support file; unknown names suggest close ones', async () => {
    const view = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy', session_id: 's1' } });
    expect(view.isError).toBeFalsy();
    expect(textOf(view)).toContain('Base directory for this skill:');
    const file = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy', file_path: 'references/steps.md' } });
    expect(textOf(file)).toBe('Step one.\n');
    const leak = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy', file_path: 'references/leak.md' } });
    expect(leak.isError).toBe(true);
    expect(textOf(leak)).not.toContain('not for agents');
    const outsideSupport = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy', file_path: '../auto/SKILL.md' } });
    expect(outsideSupport.isError).toBe(true);
    const missing = await client.callTool({ name: 'skill_view', arguments: { name: 'deploi' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('Closest names: deploy');
    const escape = await client.callTool({ name: 'skill_view', arguments: { name: '../deploy' } });
    expect(escape.isError).toBe(true);
    const usage = await client.callTool({ name: 'skill_usage', arguments: { name: 'deploy' } });
    expect(JSON.parse(textOf(usage)).skills[0]).toMatchObject({ name: 'deploy', view_count: 1 });
    const used = await client.callTool({ name: 'skill_usage', arguments: { name: 'deploy', record: 'use' } });
    expect(JSON.parse(textOf(used)).skills[0]).toMatchObject({ name: 'deploy', use_count: 2, view_count: 1 }); // the prompt above was one use
    const nameless = await client.callTool({ name: 'skill_usage', arguments: { record: 'use' } });
    expect(nameless.isError).toBe(true);
  });

  it.each([
    [{ action: 'patch', name: 'deploy' }, /needs `old_string`/],
    [
      { action: 'patch', name: 'deploy', old_string: 'a', new_string: 'b', replace_all: 'yes' },
      /`replace_all` must be a boolean, not a string/,
    ],
    [{ name: 'deploy' }, /needs `action`/],
    [{ action: 'rename', name: 'deploy' }, /`action` must be one of/],
    [{ action: 'create', name: 7, content: 'x' }, /`name` must be a string/],
    [{ action: 'delete', name: 'deploy', force: true }, /no argument `force`/],
  ])('refuses bad skill_manage arguments %j as a tool error', async (args, message) => {
    const result = await client.callTool({ name: 'skill_manage', arguments: args });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });

  it('creates and patches skills as agent commits with trailers, and says the lists changed', async () => {
    const before = notices.prompts;
    const created = await client.callTool({
      name: 'skill_manage',
      arguments: { action: 'create', name: 'release-notes', content: skillText('release-notes') },
    });
    expect(created.isError, textOf(created)).toBeFalsy();
    expect(lastTrailers(repo)).toEqual([
      'Skill-Action: create',
      'Skill-Name: release-notes',
      'Skill-Actor: agent',
      'Skill-Source: foreground',
    ]);
    expect(await waitFor(() => notices.prompts > before, 5_000)).toBe(true);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('release-notes');

    const patched = await client.callTool({
      name: 'skill_manage',
      arguments: { action: 'patch', name: 'release-notes', old_string: 'Steps.', new_string: 'Collect merged PRs.', source: 'background' },
    });
    expect(patched.isError, textOf(patched)).toBeFalsy();
    expect(lastTrailers(repo)).toEqual([
      'Skill-Action: patch',
      'Skill-Name: release-notes',
      'Skill-Actor: agent',
      'Skill-Source: background',
    ]);
    expect(git(repo, 'log', '--format=%s', '-2').trim().split('\n')).toEqual([
      expect.stringMatching(/^skill\(patch\): release-notes/),
      expect.stringMatching(/^skill\(create\): release-notes/),
    ]);
    const view = await client.callTool({ name: 'skill_view', arguments: { name: 'release-notes' } });
    expect(textOf(view)).toContain('Collect merged PRs.');
  });

  it('turns a refused write into a tool error that says what to do', async () => {
    const result = await client.callTool({
      name: 'skill_manage',
      arguments: { action: 'patch', name: 'deploy', old_string: 'no such text', new_string: 'x' },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/code: manage\//);
  });

  it('notices an edit on disk and tells the client the lists changed', async () => {
    const before = { ...notices };
    writeFileSync(join(repo, 'skills/deploy/SKILL.md'), skillText('deploy', '', 'Edited on disk.\n'));
    expect(await waitFor(() => notices.prompts > before.prompts && notices.tools > before.tools, 5_000), stderr()).toBe(true);
    const view = await client.callTool({ name: 'skill_view', arguments: { name: 'deploy' } });
    expect(textOf(view)).toContain('Edited on disk.');
  });
});
