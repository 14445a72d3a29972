import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ResourceListChangedNotificationSchema, ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { git } from '../helpers/repo.js';
import { skillText, writeTree } from '../helpers/tmp.js';
import { connectClient } from './spawn-server.js';

interface Resource {
  uri: string;
  digest: string;
  size: number;
}
interface Entry {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Resource[];
}
interface ListResult {
  resultType: string;
  skills: Entry[];
  nextCursor?: string;
  _meta?: Record<string, { uri: string; reason: string; message: string }[]>;
}

const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !check()) await new Promise((r) => setTimeout(r, 20));
  return check();
}

/** Every regular file under `dir`, relative, as the extension must list them. */
function filesOnDisk(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) return filesOnDisk(join(dir, e.name), rel);
    return e.isFile() ? [rel] : [];
  });
}

describe('the MCP Skills extension (stdio, real client)', () => {
  let repo: string;
  let client: Client;
  let stderr: () => string;
  let resourceChanges = 0;
  const raw = async <T>(method: string, params: Record<string, unknown> = {}): Promise<T> =>
    (await client.request({ method, params }, ResultSchema)) as T;
  const listAll = async (): Promise<{ pages: ListResult[]; skills: Entry[] }> => {
    const pages: ListResult[] = [];
    let cursor: string | undefined;
    do {
      const page = await raw<ListResult>('skills/list', cursor ? { cursor } : {});
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor);
    return { pages, skills: pages.flatMap((p) => p.skills) };
  };

  beforeAll(async () => {
    repo = mkdtempSync(join(tmpdir(), 'skillgarden-ext-'));
    git(repo, 'init', '-q', '-b', 'main');
    const files: Record<string, string | Uint8Array> = {
      'skills/pdf/SKILL.md': skillText(
        'pdf',
        'license: MIT\nmetadata:\n  version: "2.1.0"\n  tags: [docs, "pdf"]\nx-custom: 3 # an unknown key passes through\n',
      ),
      'skills/pdf/references/FORMS.md': '# Forms\n',
      'skills/pdf/templates/invoice.md': 'Invoice\n',
      'skills/pdf/templates/regional/eu.md': '\uFEFFEU invoice with a BOM\n',
      'skills/pdf/assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]),
      'skills/ops/deploy/SKILL.md': skillText('deploy'),
      'skills/wide/SKILL.md': skillText('wide'),
      'skills/huge/SKILL.md': skillText('huge'),
      'skills/huge/assets/blob.bin': new Uint8Array(16 * 1024 * 1024 + 1),
    };
    for (let i = 0; i < 60; i++)
      files[`skills/bulk-${String(i).padStart(2, '0')}/SKILL.md`] = skillText(`bulk-${String(i).padStart(2, '0')}`);
    for (let i = 0; i < 512; i++) files[`skills/wide/references/r${i}.md`] = `${i}\n`;
    writeTree(repo, files);
    writeFileSync(join(repo, 'outside.txt'), 'secret\n');
    symlinkSync(join(repo, 'outside.txt'), join(repo, 'skills/pdf/references/link.md'));
    ({ client, stderr } = await connectClient(repo));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void resourceChanges++);
  });

  afterAll(async () => {
    await client?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('declares the extension with directoryRead, and keeps the tools and prompts', async () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    expect(client.getServerCapabilities()?.resources).toEqual({ listChanged: true });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('skill_view');
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('pdf');
  });

  it('lists every servable skill over pages, each entry complete, digests matching the files', async () => {
    const { pages, skills } = await listAll();
    expect(pages.length).toBe(2);
    expect(pages.every((p) => p.resultType === 'complete')).toBe(true);
    const uris = skills.map((s) => s.uri);
    expect(new Set(uris).size).toBe(uris.length);
    expect(uris).toContain('skill://ops/deploy/SKILL.md');
    expect(uris.filter((u) => u.startsWith('skill://bulk-'))).toHaveLength(60);
    for (const skill of skills) {
      const skillPath = skill.uri.slice('skill://'.length, -'/SKILL.md'.length);
      expect(skillPath.split('/').pop()).toBe(skill.frontmatter.name);
      const dir = join(repo, 'skills', skillPath);
      const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
      expect(skill.frontmatter).toEqual(parseYaml(text.split('---\n')[1] ?? ''));
      const expected = filesOnDisk(dir)
        .sort()
        .map((f) => {
          const bytes = readFileSync(join(dir, f));
          return { uri: `skill://${skillPath}/${f}`, digest: sha(bytes), size: bytes.length };
        });
      expect([...skill.resources].sort((a, b) => (a.uri < b.uri ? -1 : 1))).toEqual(expected);
    }
    const pdf = skills.find((s) => s.uri === 'skill://pdf/SKILL.md');
    expect(pdf?.frontmatter).toEqual({
      name: 'pdf',
      description: 'Does pdf things. Use when pdf is needed.',
      license: 'MIT',
      metadata: { version: '2.1.0', tags: ['docs', 'pdf'] },
      'x-custom': 3,
    });
    // The link is not a file of the skill: its target lives outside it.
    expect(pdf?.resources.map((r) => r.uri)).not.toContain('skill://pdf/references/link.md');
  });

  it('withholds skills over the limits (512 files, 16 MiB) and says why', async () => {
    const { pages, skills } = await listAll();
    const uris = skills.map((s) => s.uri);
    expect(uris).not.toContain('skill://wide/SKILL.md');
    expect(uris).not.toContain('skill://huge/SKILL.md');
    const withheld = pages.flatMap((p) => p._meta?.['io.modelcontextprotocol.skills/withheld'] ?? []);
    expect(withheld.map((w) => [w.uri, w.reason]).sort()).toEqual([
      ['skill://huge/SKILL.md', 'too-large'],
      ['skill://wide/SKILL.md', 'too-many-files'],
    ]);
    const refusal = await raw('skills/get', { uri: 'skill://wide/SKILL.md' }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(McpError);
    expect((refusal as McpError).code).toBe(-32602);
    expect((refusal as McpError).message).toMatch(/more than 512 files/);
  });

  it('gets one skill by its SKILL.md URI; an unknown one is -32602', async () => {
    const got = await raw<{ resultType: string; skill: Entry }>('skills/get', { uri: 'skill://ops/deploy/SKILL.md' });
    expect(got.resultType).toBe('complete');
    const bytes = readFileSync(join(repo, 'skills/ops/deploy/SKILL.md'));
    expect(got.skill.resources).toEqual([{ uri: 'skill://ops/deploy/SKILL.md', digest: sha(bytes), size: bytes.length }]);
    for (const uri of ['skill://nope/SKILL.md', 'skill://pdf/references/FORMS.md', 'skill://pdf', 'file:///etc/passwd']) {
      const error = await raw('skills/get', { uri }).catch((e: unknown) => e);
      expect((error as McpError).code, uri).toBe(-32602);
    }
    expect(((await raw('skills/list', { cursor: 'garbage' }).catch((e: unknown) => e)) as McpError).code).toBe(-32602);
  });

  it('reads every listed file with resources/read, bytes matching the digest and size', async () => {
    const got = await raw<{ skill: Entry }>('skills/get', { uri: 'skill://pdf/SKILL.md' });
    expect(got.skill.resources).toHaveLength(5);
    for (const resource of got.skill.resources) {
      const { contents } = await client.readResource({ uri: resource.uri });
      const content = contents[0] as { uri: string; text?: string; blob?: string };
      const bytes = content.blob !== undefined ? Buffer.from(content.blob, 'base64') : Buffer.from(content.text ?? '', 'utf8');
      expect(sha(bytes), resource.uri).toBe(resource.digest);
      expect(bytes.length).toBe(resource.size);
    }
    const png = await client.readResource({ uri: 'skill://pdf/assets/logo.png' });
    expect(png.contents[0]).toMatchObject({ mimeType: 'image/png' });
    for (const uri of ['skill://pdf/references/link.md', 'skill://pdf/../../outside.txt', 'skill://pdf/missing.md', 'skill://pdf']) {
      const error = await client.readResource({ uri }).catch((e: unknown) => e);
      expect((error as McpError).code, uri).toBe(-32602);
    }
  });

  it('lists SKILL.md resources with resources/list', async () => {
    const first = await client.listResources();
    const second = await client.listResources({ cursor: first.nextCursor ?? '' });
    const all = [...first.resources, ...second.resources];
    expect(second.nextCursor).toBeUndefined();
    expect(all.find((r) => r.uri === 'skill://pdf/SKILL.md')).toMatchObject({ name: 'pdf', mimeType: 'text/markdown' });
  });

  it('reads directories: a skill root, a subfolder, a category; files are not directories', async () => {
    const root = await raw<{ resources: { uri: string; name: string; mimeType: string }[] }>('resources/directory/read', {
      uri: 'skill://pdf',
    });
    expect(root.resources.map((r) => [r.name, r.mimeType])).toEqual([
      ['SKILL.md', 'text/markdown'],
      ['assets', 'inode/directory'],
      ['references', 'inode/directory'],
      ['templates', 'inode/directory'],
    ]);
    const templates = await raw<{ resources: { uri: string; mimeType: string }[] }>('resources/directory/read', {
      uri: 'skill://pdf/templates',
    });
    expect(templates.resources).toEqual([
      { uri: 'skill://pdf/templates/invoice.md', name: 'invoice.md', mimeType: 'text/markdown', size: 8 },
      { uri: 'skill://pdf/templates/regional', name: 'regional', mimeType: 'inode/directory' },
    ]);
    const category = await raw<{ resources: { uri: string }[] }>('resources/directory/read', { uri: 'skill://ops' });
    expect(category.resources.map((r) => r.uri)).toEqual(['skill://ops/deploy']);
    for (const uri of ['skill://pdf/SKILL.md', 'skill://pdf/templates/', 'skill://nothing']) {
      const error = await raw('resources/directory/read', { uri }).catch((e: unknown) => e);
      expect((error as McpError).code, uri).toBe(-32602);
    }
  });

  it('tells the client when the library changes, and lists the new skill', async () => {
    const before = resourceChanges;
    writeTree(repo, { 'skills/fresh/SKILL.md': skillText('fresh') });
    expect(await waitFor(() => resourceChanges > before, 5_000), stderr()).toBe(true);
    const { skills } = await listAll();
    expect(skills.map((s) => s.uri)).toContain('skill://fresh/SKILL.md');
  });

  it('leaves unknown methods unknown', async () => {
    const error = await raw('skills/frobnicate').catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32601);
  });
});
