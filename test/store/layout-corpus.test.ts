import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect, it } from 'vitest';
import { runValidateMode } from '../../src/action/validate-mode.js';
import type { ActionIo } from '../../src/action/io.js';
import { readInputs } from '../../src/action/inputs.js';
import { SkillRegistry } from '../../src/registry/skill-registry.js';
import { openLibrary } from '../../src/store/layout/discover-library.js';
import { cli } from '../helpers/cli.js';
import { describeFullCorpus, hasCorpus } from '../helpers/corpus.js';
import { connectClient } from '../mcp/spawn-server.js';
import { buildCorpusLayouts } from './layout-helpers.js';

/** The layouts of anthropics/skills, K-Dense, wshobson/agents and obra/superpowers, with the skill counts the corpus holds. */
const expected: Record<string, number> = { anthropics: 12, scientific: 130, wshobson: 181, superpowers: 14 };

function captureIo(): { io: ActionIo; outputs: Record<string, string> } {
  const outputs: Record<string, string> = {};
  const io: ActionIo = {
    info: () => undefined,
    warning: () => undefined,
    annotate: () => undefined,
    appendSummary: async () => undefined,
    setOutput: (name, value) => void (outputs[name] = value),
    setSecret: () => undefined,
  };
  return { io, outputs };
}

async function mcpNames(client: Client): Promise<string[]> {
  const answer = await client.callTool({ name: 'skills_list', arguments: { include_hidden: true } });
  const data = JSON.parse((answer.content as { text: string }[])[0]?.text ?? '[]') as { name: string }[] | { skills: { name: string }[] };
  return (Array.isArray(data) ? data : data.skills).map((s) => s.name);
}

describeFullCorpus('public layouts, with no configuration: every command sees the same skills', () => {
  // Built inside each test: temporary folders are removed after every test.
  const layouts = hasCorpus ? buildCorpusLayouts() : {};

  for (const [layout, count] of Object.entries(expected)) {
    it(`${layout}: ${count} skills in validate, scan, list, the registry, MCP and the Action`, async () => {
      const dir = (layouts[layout] as () => string)();
      const discovered = openLibrary(dir, undefined);
      const names = discovered.skills.map((s) => s.name).sort();
      // What clients call them: `plugin:skill` for a plugin's (list, the registry and MCP serve these).
      const ids = discovered.skills.map((s) => s.id).sort();
      expect(names).toHaveLength(count);
      expect(discovered.findings.filter((f) => f.code.startsWith('manifest/') || f.code.startsWith('library/'))).toEqual([]);

      const validate = await cli(['validate', '--json', '--no-scan'], { cwd: dir });
      expect(JSON.parse(validate.stdout).skills, validate.stderr).toBe(count);
      const scan = await cli(['scan', '--json'], { cwd: dir });
      expect(Object.keys(JSON.parse(scan.stdout).verdicts).sort(), scan.stderr).toEqual(names);
      const list = await cli(['list', '--json'], { cwd: dir });
      expect(
        (JSON.parse(list.stdout).skills as { name: string; state: string }[])
          .filter((s) => s.state !== 'archived')
          .map((s) => s.name)
          .sort(),
      ).toEqual(ids);
      const registry = await SkillRegistry.open({ repoDir: dir });
      const served = registry.list().map((e) => e.name);
      const unserved = ids.filter((n) => !served.includes(n));
      // A skill the registry cannot parse is reported, never silently dropped.
      for (const id of unserved) expect(registry.findings().some((f) => f.file.includes(`/${id.slice(id.indexOf(':') + 1)}/`))).toBe(true);
      expect([...served, ...unserved].sort()).toEqual(ids);
      const reminder = await cli(['reminder'], { cwd: dir });
      expect(reminder.code, reminder.stderr).toBe(0);
      const load = await cli(['load', served[0] as string], { cwd: dir });
      expect(load.code, load.stderr).toBe(0);

      // Closed before the test ends: its folder is removed after each test, and a server still running there
      // (writing its registry index) made that removal fail with ENOTEMPTY.
      const { client } = await connectClient(dir);
      try {
        expect((await mcpNames(client)).sort()).toEqual(served.sort());
      } finally {
        await client.close();
      }

      const { io, outputs } = captureIo();
      const env = { GITHUB_WORKSPACE: dir, RUNNER_TEMP: join(dir, '.tmp'), INPUT_MODE: 'validate', INPUT_SCAN: 'false' };
      await runValidateMode(readInputs(env), io);
      expect(outputs.skills).toBe(String(count));
    }, 120_000);
  }

  it('anthropics/skills: template/ is not a skill of the marketplace, and the listed paths are the skills/ folders', () => {
    const library = openLibrary((layouts.anthropics as () => string)(), undefined);
    expect(library.skills.some((s) => s.path.startsWith('template'))).toBe(false);
    expect(library.layout.manifests).toEqual(['.claude-plugin/marketplace.json']);
  });

  it('wshobson/agents: one root per plugin, found through the marketplace and each plugin.json', () => {
    const library = openLibrary((layouts.wshobson as () => string)(), undefined);
    expect(library.layout.roots.every((r) => /^plugins\/[^/]+\/skills$/.test(r.path))).toBe(true);
    // The corpus keeps the 50 plugins that hold skills: each has a plugin.json here.
    expect(library.layout.manifests.filter((m) => m.endsWith('plugin.json'))).toHaveLength(50);
  });
});
