import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SkillEvidence } from '../../src/core/evidence/types.js';
import type { SkillListing } from '../../src/mcp/evidence-tool.js';
import { tempDir } from '../helpers/tmp.js';
import { plantSessions } from '../helpers/transcript-plant.js';
import { dbMigrate, oncallRotate, plantLibrary, plantedSessions, releaseCut } from '../services/evidence/plant.js';
import { connectClient } from './spawn-server.js';

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as TextResult).content.map((c) => c.text).join('');

describe('skill_evidence over MCP (stdio, real client)', () => {
  let repo: string;
  let client: Client;

  beforeAll(async () => {
    repo = await plantLibrary({ 'release-cut': releaseCut, 'db-migrate': dbMigrate, 'oncall-rotate': oncallRotate });
    ({ client } = await connectClient(repo));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    rmSync(repo, { recursive: true, force: true });
  });

  // The library and the transcripts are temporary folders removed after each test: one test holds the whole conversation.
  it('says where to set the transcripts when none are configured, then answers from the setting once it is there, and refuses what it cannot answer', async () => {
    const unset = await client.callTool({ name: 'skill_evidence', arguments: { name: 'release-cut' } });
    expect(unset.isError).toBe(true);
    expect(textOf(unset)).toContain('set `transcripts:` in .skillgarden/config.yaml');

    const root = tempDir('sg-mcp-transcripts-');
    const { claude, codex } = plantedSessions();
    plantSessions(root, 'claude-code', claude);
    plantSessions(root, 'codex', codex);
    // Read per call: the server that answered above sees the new setting without a restart.
    mkdirSync(join(repo, '.skillgarden'), { recursive: true });
    writeFileSync(join(repo, '.skillgarden', 'config.yaml'), `transcripts:\n  - ${JSON.stringify(root)}\n`);

    const answer = await client.callTool({ name: 'skill_evidence', arguments: { name: 'release-cut' } });
    expect(answer.isError).toBeFalsy();
    const body = JSON.parse(textOf(answer)) as { sessions: number; min_sessions: number; skill: SkillEvidence; budgets: SkillListing[] };
    expect(body.sessions).toBe(20);
    expect(body.min_sessions).toBe(5);
    expect(body.skill).toMatchObject({ name: 'release-cut', loaded: 0, missed: 6, trigger_rate: 0, certainty: 'enough' });
    expect(body.skill.missed_sessions).toHaveLength(6);
    // Nothing private from a transcript reaches the agent: the planted token is redacted in the request it carried.
    expect(textOf(answer)).not.toContain('ghp_');
    expect(body.budgets.map((b) => [b.client, b.listed, b.rank, b.of])).toEqual([
      ['claude-code', 'fits', 3, 3],
      ['codex', 'fits', 3, 3],
      ['gemini-cli', 'fits', 3, 3],
    ]);
    expect(body.budgets[0]).toMatchObject({ limit_chars: 8000, advice: [] });

    // Names it has no evidence for, and bad arguments: refused, saying what to send.
    const unknown = await client.callTool({ name: 'skill_evidence', arguments: { name: 'nope' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('no evidence for "nope": it is not a skill of the library');
    expect(textOf(unknown)).toContain('db-migrate, oncall-rotate, release-cut');
    const missing = await client.callTool({ name: 'skill_evidence', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('skill_evidence needs `name`');
  });

  it('is listed with the other tools', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'skill_evidence');
    expect(tool?.inputSchema).toMatchObject({ required: ['name'] });
    expect(tool?.description).toContain('trigger rate');
  });
});
