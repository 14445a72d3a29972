import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ActionIo, Annotation } from '../../src/action/io.js';
import { readInputs } from '../../src/action/inputs.js';
import { runValidateMode } from '../../src/action/validate-mode.js';
import { agentSkillFolders } from '../../src/core/layout/skill-roots.js';
import { createSkillServer } from '../../src/mcp/skill-server.js';
import { SkillRegistry } from '../../src/registry/skill-registry.js';
import { readPackages } from '../../src/services/consolidate/index.js';
import { readLibrary } from '../../src/services/curator/read-library.js';
import { requireConfig } from '../../src/services/config-file.js';
import { readExistingSkills } from '../../src/services/detect.js';
import { openLibrary } from '../../src/store/layout/discover-library.js';
import { cli } from '../helpers/cli.js';
import { repoWith } from '../helpers/repo.js';

/**
 * A generated library: skill roots (`skills/` with categories, the agents'
 * folders, plugins with and without a plugin.json, maybe a marketplace that
 * lists them), archives beside some roots, found by detection or named in
 * `skills_dir`. Every command must report the same set of skills.
 */
interface GeneratedLayout {
  files: Record<string, string>;
  /** The live skills, by name: what every command must see. */
  names: string[];
  archived: string[];
}

// Each skill links a file it does not have: validate and the Action then name every skill they checked.
const skill = (name: string) =>
  `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is needed.\n---\n# ${name}\n\nSee [the notes](references/missing-${name}.md).\n`;

const rootShape = fc.record({
  skills: fc.integer({ min: 0, max: 3 }),
  categorized: fc.boolean(),
  archived: fc.integer({ min: 0, max: 1 }),
});

const layoutShape = fc.record({
  top: fc.option(rootShape, { nil: undefined }),
  agents: fc.subarray(
    agentSkillFolders.map((f) => f.path),
    { maxLength: 2 },
  ),
  agentSkills: fc.integer({ min: 1, max: 2 }),
  plugins: fc.array(fc.record({ skills: fc.integer({ min: 1, max: 2 }), manifest: fc.boolean(), archived: fc.boolean() }), {
    maxLength: 3,
  }),
  marketplace: fc.constantFrom('none', 'sources', 'listed'),
  configured: fc.boolean(),
});

type LayoutShape = typeof layoutShape extends fc.Arbitrary<infer T> ? T : never;

function buildLayout(shape: LayoutShape): GeneratedLayout {
  const files: Record<string, string> = {};
  const names: string[] = [];
  const archived: string[] = [];
  let next = 0;
  const add = (folder: string): string => {
    const name = `skill-${next++}`;
    files[`${folder}/${name}/SKILL.md`] = skill(name);
    names.push(name);
    return name;
  };
  const archive = (root: string) => {
    const name = `gone-${next++}`;
    files[`${root}/.archive/${name}/SKILL.md`] = skill(name);
    archived.push(name);
  };
  const roots: string[] = [];
  if (shape.top && shape.top.skills > 0) {
    roots.push('skills');
    for (let i = 0; i < shape.top.skills; i++) add(shape.top.categorized && i % 2 === 0 ? 'skills/tools' : 'skills');
    for (let i = 0; i < shape.top.archived; i++) archive('skills');
  }
  for (const folder of shape.agents) {
    roots.push(folder);
    for (let i = 0; i < shape.agentSkills; i++) add(folder);
  }
  const listed: string[][] = [];
  shape.plugins.forEach((plugin, p) => {
    const root = `plugins/p${p}/skills`;
    roots.push('plugins/*/skills');
    const mine: string[] = [];
    for (let i = 0; i < plugin.skills; i++) mine.push(`./skills/${add(root)}`);
    listed.push(mine);
    if (plugin.manifest) files[`plugins/p${p}/.claude-plugin/plugin.json`] = `${JSON.stringify({ name: `p${p}`, version: '1.0.0' })}\n`;
    if (plugin.archived) archive(root);
  });
  if (shape.marketplace !== 'none' && shape.plugins.length > 0) {
    const plugins = shape.plugins.map((_, p) => ({
      name: `p${p}`,
      source: `./plugins/p${p}`,
      ...(shape.marketplace === 'listed' ? { skills: listed[p] } : {}),
    }));
    files['.claude-plugin/marketplace.json'] = `${JSON.stringify({ name: 'market', owner: { name: 'Test' }, plugins }, null, 2)}\n`;
  }
  if (shape.configured && roots.length > 0) files['.skillgarden/config.yaml'] = `skills_dir: ${JSON.stringify([...new Set(roots)])}\n`;
  if (names.length === 0) add('skills');
  return { files, names: names.sort(), archived };
}

function captureIo(): { io: ActionIo; annotations: Annotation[]; outputs: Record<string, string> } {
  const annotations: Annotation[] = [];
  const outputs: Record<string, string> = {};
  const io: ActionIo = {
    info: () => undefined,
    warning: () => undefined,
    annotate: (a) => void annotations.push(a),
    appendSummary: async () => undefined,
    setOutput: (name, value) => void (outputs[name] = value),
    setSecret: () => undefined,
  };
  return { io, annotations, outputs };
}

/** The skill a finding's file belongs to: `…/<name>/SKILL.md`. */
const skillOfFile = (file: string | undefined): string[] => {
  const match = /(?:^|\/)([^/]+)\/SKILL\.md$/.exec(file ?? '');
  return match ? [match[1] as string] : [];
};
// A plugin's skills are served as `p0:skill-1` (layout-names tests check that): the sets compare the skills' own names, all distinct here.
const sorted = (names: Iterable<string>) => [...new Set([...names].map((n) => n.replace(/\bp\d+:/, '')))].sort();

/** What each command reports, as a set of names. */
async function reportedSets(dir: string): Promise<Record<string, string[]>> {
  const run = async (...argv: string[]) => {
    const result = await cli(['--now', '2026-11-30T00:00:00Z', ...argv], { cwd: dir });
    return { ...result, json: result.stdout.trim().startsWith('{') ? JSON.parse(result.stdout) : undefined };
  };
  const sets: Record<string, string[]> = {};
  const setting = requireConfig(dir).skills_dir;
  const library = openLibrary(dir, setting);
  sets.discovery = sorted(library.skills.map((s) => s.name));

  const validate = await run('validate', '--json', '--no-scan');
  sets.validate = sorted((validate.json.findings as { file?: string }[]).flatMap((f) => skillOfFile(f.file)));
  sets['validate count'] = sets.validate.length === validate.json.skills ? sets.validate : [`count ${validate.json.skills}`];
  sets.scan = sorted(Object.keys((await run('scan', '--json')).json.verdicts));
  // list and show include archived skills, marked so: the live ones are the set, the archived ones a set of their own.
  const list = (await run('list', '--json')).json as { skills: { name: string; state: string }[] };
  sets.list = sorted(list.skills.filter((s) => s.state !== 'archived').map((s) => s.name));
  sets['list archived'] = sorted(list.skills.filter((s) => s.state === 'archived').map((s) => `archived ${s.name}`));
  const reminder = (await run('reminder')).stdout;
  sets.reminder = sorted([...reminder.matchAll(/\b(?:skill|gone)-\d+\b/g)].map((m) => m[0]));
  sets['reminder entries'] = sets.discovery.slice(0, ((await run('reminder', '--json')).json as { skills: number }).skills);
  const shown: string[] = [];
  const loaded: string[] = [];
  for (const name of [...sets.discovery, ...library.archived.map((l) => l.name)]) {
    const show = await run('show', name, '--json');
    if (show.code === 0) shown.push(show.json.state === 'archived' ? `archived ${name}` : name);
    if ((await run('load', name)).code === 0) loaded.push(name);
  }
  sets.show = sorted(shown.filter((n) => !n.startsWith('archived ')));
  sets['show archived'] = sorted(shown.filter((n) => n.startsWith('archived ')));
  sets.load = sorted(loaded);
  const curate = (await run('curate', '--dry-run', '--json')).json as { counts: { before: { active: number; stale: number } } };
  sets['curate --dry-run'] = sets.discovery.slice(0, curate.counts.before.active + curate.counts.before.stale);
  sets.plan = sorted(readPackages(await readLibrary(dir, { now: new Date() })).skills.map((s) => s.name));
  sets.detect = sorted((await readExistingSkills(library)).map((s) => s.name));

  const registry = await SkillRegistry.open({ repoDir: dir, ...(setting === undefined ? {} : { skillsDir: setting }) });
  sets.registry = sorted(registry.list().map((e) => e.name));
  Object.assign(sets, await mcpSets(registry));

  const { io, annotations, outputs } = captureIo();
  await runValidateMode(
    readInputs({ GITHUB_WORKSPACE: dir, RUNNER_TEMP: join(dir, '.git', 'tmp'), INPUT_MODE: 'validate', INPUT_SCAN: 'false' }),
    io,
  );
  sets.action = sorted(annotations.flatMap((a) => skillOfFile(a.file)));
  sets['action count'] = outputs.skills === String(sets.action.length) ? sets.action : [`count ${outputs.skills}`];
  return sets;
}

/** The MCP server's skills_list, and skill_usage (every skill's counters): the usage every agent sees. */
async function mcpSets(registry: SkillRegistry): Promise<Record<string, string[]>> {
  const { server, dispose } = createSkillServer(
    {
      registry,
      manageContext: () => Promise.reject(new Error('read-only')),
      sessionId: 'property',
      now: () => new Date('2026-11-30T00:00:00Z'),
    },
    { version: '0.0.0' },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'property', version: '0.0.0' });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const names = async (tool: string, args: Record<string, unknown>) => {
      const answer = await client.callTool({ name: tool, arguments: args });
      const data = JSON.parse((answer.content as { text: string }[])[0]?.text ?? '{}') as { skills: { name: string }[] };
      return sorted(data.skills.map((s) => s.name));
    };
    return { 'mcp skills_list': await names('skills_list', { include_hidden: true }), 'mcp skill_usage': await names('skill_usage', {}) };
  } finally {
    dispose();
    await client.close();
    await server.close();
  }
}

describe('generated layouts', () => {
  it('every command reports the same set of skills: the generated ones, never an archived one', async () => {
    await fc.assert(
      fc.asyncProperty(layoutShape, async (shape) => {
        const layout = buildLayout(shape);
        const dir = repoWith(layout.files);
        const sets = await reportedSets(dir);
        const archived = sorted(layout.archived.map((n) => `archived ${n}`));
        for (const [command, names] of Object.entries(sets))
          expect({ command, names }).toEqual({ command, names: command.endsWith(' archived') ? archived : layout.names });
      }),
      { numRuns: 15, seed: 14 },
    );
  }, 120_000);
});
