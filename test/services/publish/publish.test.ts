import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { openLibrary } from '../../../src/store/layout/discover-library.js';
import { cli } from '../../helpers/cli.js';
import { git, repoWith } from '../../helpers/repo.js';
import { skillText, tempDir } from '../../helpers/tmp.js';

interface Index {
  $schema: string;
  skills: { name: string; type: string; description: string; url: string; digest: string }[];
}

const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');
const sha = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
let server: Server | undefined;

afterEach(async () => {
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A static file server on 127.0.0.1, as a site host would serve the published folder. */
async function serve(root: string): Promise<string> {
  server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    try {
      res.end(readFileSync(join(root, path)));
    } catch {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}`;
}

const frontmatterOf = (text: string) => parseYaml(text.split('---\n')[1] ?? '') as { metadata?: { version?: string } };

describe('skillgarden publish', () => {
  it('writes the discovery index whose every entry fetches from a static server with its digest', async () => {
    const repo = repoWith({
      'skills/solo/SKILL.md': skillText('solo'),
      'skills/kit/SKILL.md': skillText('kit', 'metadata:\n  owner: ops\n'),
      'skills/kit/references/steps.md': 'Step one.\n',
      'skills/kit/scripts/run.sh': '#!/bin/sh\necho hi\n',
    });
    writeFileSync(join(repo, 'skills/kit/references/steps.md'), 'Step one, then two.\n');
    git(repo, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-qam', 'kit: a second step');
    const out = tempDir();
    const run = await cli(['--json', 'publish', '--out', out, '--marketplace', 'team-skills', '--owner', 'Team'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);

    const base = await serve(out);
    const index = (await (await fetch(`${base}/.well-known/agent-skills/index.json`)).json()) as Index;
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index.skills.map((s) => [s.name, s.type])).toEqual([
      ['kit', 'archive'],
      ['solo', 'skill-md'],
    ]);
    for (const entry of index.skills) {
      const response = await fetch(`${base}${entry.url}`);
      expect(response.status, entry.url).toBe(200);
      expect(sha(new Uint8Array(await response.arrayBuffer())), entry.url).toBe(entry.digest);
      expect(entry.description).toBe(`Does ${entry.name} things. Use when ${entry.name} is needed.`);
    }

    // The archive unpacks with tar into the skill's files; its SKILL.md carries the version.
    const unpacked = tempDir();
    const kit = index.skills.find((s) => s.name === 'kit');
    writeFileSync(join(unpacked, 'kit.tar.gz'), Buffer.from(await (await fetch(`${base}${kit?.url}`)).arrayBuffer()));
    mkdirSync(join(unpacked, 'kit'));
    execFileSync('tar', ['-xzf', join(unpacked, 'kit.tar.gz'), '-C', join(unpacked, 'kit')]);
    expect(
      execFileSync('find', ['.', '-type', 'f'], { cwd: join(unpacked, 'kit'), encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .sort(),
    ).toEqual(['./SKILL.md', './references/steps.md', './scripts/run.sh']);
    expect(readFileSync(join(unpacked, 'kit/references/steps.md'), 'utf8')).toBe('Step one, then two.\n');
    expect(frontmatterOf(readFileSync(join(unpacked, 'kit/SKILL.md'), 'utf8')).metadata).toEqual({ owner: 'ops', version: '0.2.0' });
    const solo = await (await fetch(`${base}/.well-known/agent-skills/solo/SKILL.md`)).text();
    expect(frontmatterOf(solo).metadata?.version).toBe('0.1.0');
    const changelog = await (await fetch(`${base}/.well-known/agent-skills/kit/CHANGELOG.md`)).text();
    expect(changelog).toMatch(/- 0\.2\.0 \(\d{4}-\d\d-\d\d, [0-9a-f]{7}\): kit: a second step\n- 0\.1\.0 .*: initial library\n/);

    const marketplace = JSON.parse(readFileSync(join(out, '.claude-plugin/marketplace.json'), 'utf8')) as {
      name: string;
      plugins: { name: string; source: string; version: string }[];
    };
    expect(marketplace.name).toBe('team-skills');
    expect(marketplace.plugins).toContainEqual(expect.objectContaining({ name: 'kit', source: './plugins/kit', version: '0.2.0' }));
    expect(JSON.parse(readFileSync(join(out, 'plugins/kit/.claude-plugin/plugin.json'), 'utf8'))).toMatchObject({
      name: 'kit',
      version: '0.2.0',
    });
    expect(readFileSync(join(out, 'plugins/kit/skills/kit/references/steps.md'), 'utf8')).toBe('Step one, then two.\n');
  });

  it('moves the version when content changes: -dev while uncommitted, the next one once committed; same content, same bytes', async () => {
    const repo = repoWith({ 'skills/solo/SKILL.md': skillText('solo') });
    const out = tempDir();
    const publish = async () => {
      expect((await cli(['publish', '--out', out], { cwd: repo })).code).toBe(0);
      return JSON.parse(readFileSync(join(out, '.well-known/agent-skills/index.json'), 'utf8')) as Index;
    };
    const versionNow = () => frontmatterOf(readFileSync(join(out, '.well-known/agent-skills/solo/SKILL.md'), 'utf8')).metadata?.version;
    const first = await publish();
    expect(versionNow()).toBe('0.1.0');
    expect((await publish()).skills[0]?.digest).toBe(first.skills[0]?.digest);
    writeFileSync(join(repo, 'skills/solo/SKILL.md'), skillText('solo', '', '# solo\n\nBetter steps.\n'));
    await publish();
    expect(versionNow()).toMatch(/^0\.1\.0-dev\.[0-9a-f]{8}$/);
    git(repo, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-qam', 'better steps');
    const third = await publish();
    expect(versionNow()).toBe('0.2.0');
    expect(third.skills[0]?.digest).not.toBe(first.skills[0]?.digest);
  });

  it('publishes nothing while a skill has errors', async () => {
    const repo = repoWith({ 'skills/solo/SKILL.md': skillText('solo'), 'skills/bad/SKILL.md': '---\nname: other\ndescription: x\n---\n' });
    const out = tempDir();
    const run = await cli(['publish', '--out', out], { cwd: repo });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('skill/name-mismatch');
    expect(execFileSync('find', [out, '-mindepth', '1'], { encoding: 'utf8' })).toBe('');
  });
});

describe('skillgarden publish --agent-plugin', () => {
  const pluginManifest = (out: string) =>
    JSON.parse(readFileSync(join(out, 'agent-plugins/team-skills/plugin.json'), 'utf8')) as Record<string, unknown>;

  it("writes an Agent Plugins 1.0 package that skillgarden's own discovery and validate accept", async () => {
    const repo = repoWith({
      'skills/solo/SKILL.md': skillText('solo'),
      'skills/kit/SKILL.md': skillText('kit'),
      'skills/kit/references/steps.md': 'Step one.\n',
    });
    const out = tempDir();
    const run = await cli(['publish', '--out', out, '--agent-plugin', 'team-skills', '--owner', 'Team'], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(pluginManifest(out)).toEqual({
      $schema: 'https://agent-plugins.org/schemas/1.0.0/plugin.schema.json',
      name: 'team-skills',
      version: '0.1.0',
      description: '2 Agent Skills: kit, solo',
      author: { name: 'Team' },
      keywords: ['agent-skills'],
    });

    // The package, read as a library: plugin.json found, its skills one level under skills/, no manifest findings.
    const plugin = join(out, 'agent-plugins/team-skills');
    const library = openLibrary(plugin, undefined);
    expect(library.findings).toEqual([]);
    expect(library.layout.manifests).toEqual(['plugin.json']);
    expect(library.layout.roots).toEqual([{ path: 'skills', origin: 'skills' }]);
    expect(library.skills.map((s) => [s.name, s.path])).toEqual([
      ['kit', 'skills/kit'],
      ['solo', 'skills/solo'],
    ]);
    expect(readFileSync(join(plugin, 'skills/kit/references/steps.md'), 'utf8')).toBe('Step one.\n');
    expect(frontmatterOf(readFileSync(join(plugin, 'skills/kit/SKILL.md'), 'utf8')).metadata?.version).toBe('0.1.0');
    const validate = await cli(['--json', 'validate', '--profile', 'agent-plugins'], { cwd: plugin });
    const report = JSON.parse(validate.stdout) as { skills: number; findings: { code: string; severity: string }[] };
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(report.skills).toBe(2);
    expect(validate.code, validate.stdout).toBe(0);

    // The plugin's version moves with a commit to any of its skills.
    writeFileSync(join(repo, 'skills/solo/SKILL.md'), skillText('solo', '', '# solo\n\nBetter steps.\n'));
    git(repo, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-qam', 'solo: better steps');
    expect((await cli(['publish', '--out', out, '--agent-plugin', 'team-skills'], { cwd: repo })).code).toBe(0);
    expect(pluginManifest(out)).toMatchObject({ version: '0.2.0' });
    expect(pluginManifest(out)).not.toHaveProperty('author');
  });

  it('refuses a plugin name Agent Plugins clients would reject, and writes nothing', async () => {
    const repo = repoWith({ 'skills/solo/SKILL.md': skillText('solo') });
    const out = tempDir();
    const run = await cli(['publish', '--out', out, '--agent-plugin', 'Team_Skills'], { cwd: repo });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('plugin.json would be rejected');
    expect(execFileSync('find', [out, '-mindepth', '1'], { encoding: 'utf8' })).toBe('');
  });
});

describe('publish of plugins whose skills share a name', () => {
  it('publishes alpha:setup and beta:setup as alpha-setup and beta-setup, each SKILL.md named as its artifact, nothing overwritten', async () => {
    const repo = repoWith({});
    cpSync(join(fixturesDir, 'layouts', 'marketplace-shared-names'), repo, { recursive: true });
    git(repo, 'add', '-A');
    git(repo, '-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-qm', 'plugins');
    const out = tempDir();
    const run = await cli(['--json', 'publish', '--out', out], { cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    const index = JSON.parse(readFileSync(join(out, '.well-known/agent-skills/index.json'), 'utf8')) as Index;
    const names = index.skills.map((s) => s.name);
    expect(names).toEqual(['alpha-setup', 'beta-setup', 'lint', 'notes', 'solo']);
    expect(new Set(index.skills.map((s) => s.url)).size).toBe(names.length);
    for (const name of ['alpha-setup', 'beta-setup']) {
      const entry = index.skills.find((s) => s.name === name)!;
      const path = join(out, entry.url.slice(1));
      const text = entry.type === 'skill-md' ? readFileSync(path, 'utf8') : '';
      if (entry.type === 'skill-md') expect((parseYaml(text.split('---\n')[1] ?? '') as { name: string }).name).toBe(name);
      expect(sha(readFileSync(path))).toBe(entry.digest);
    }
  });
});
