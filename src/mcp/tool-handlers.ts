import type { SkillVersions } from './skills-extension.js';
import { readFile, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { isSkillgardenError } from '../core/errors.js';
import type { EvidenceReport } from '../core/evidence/types.js';
import { maxSupportFileBytes, supportPathProblem } from '../core/manage/support-path.js';
import { isInactive, usageScore } from '../core/usage/index.js';
import type { ManageContext } from '../services/manage/index.js';
import { isLoaded, renderLoadResult } from '../registry/load-result.js';
import type { SkillRegistry } from '../registry/skill-registry.js';
import { checkToolArguments } from './check-arguments.js';
import { answerSkillEvidence } from './evidence-tool.js';
import { renderManageResult, runManageAction, type ManageToolInput } from './manage-tool.js';
import type { ToolName } from './tool-definitions.js';

export interface ToolContext {
  registry: SkillRegistry;
  /** Opened on the first write, so a read-only session never touches git. */
  manageContext: () => Promise<ManageContext>;
  sessionId: string;
  now: () => Date;
  /** The evidence report over the configured transcripts; undefined when none are configured. */
  readEvidence?: () => Promise<EvidenceReport | undefined>;
  /** The versions publish names for vendored skills (MCP `skills/list`); undefined: none named. */
  skillVersions?: SkillVersions;
}

export interface ToolAnswer {
  text: string;
  isError: boolean;
}

const ok = (text: string): ToolAnswer => ({ text, isError: false });
const fail = (text: string): ToolAnswer => ({ text, isError: true });

/** Answers one tool call; every failure is an answer with `isError`, never a thrown protocol error. */
export async function answerTool(ctx: ToolContext, tool: ToolName, args: Record<string, unknown> | undefined): Promise<ToolAnswer> {
  const problems = checkToolArguments(tool, args ?? {});
  if (problems.length > 0) return fail(`Invalid arguments for ${tool}:\n${problems.map((p) => `- ${p}`).join('\n')}`);
  const input = args ?? {};
  try {
    switch (tool) {
      case 'skills_list':
        return ok(listSkills(ctx, input.category as string | undefined, input.include_hidden === true));
      case 'skill_view':
        return await viewSkill(ctx, input as { name: string; file_path?: string; arguments?: string; session_id?: string });
      case 'skill_manage': {
        const result = await runManageAction(await ctx.manageContext(), input as unknown as ManageToolInput);
        await ctx.registry.refresh();
        return ok(renderManageResult(result));
      }
      case 'skill_usage':
        return await usage(ctx, input.name as string | undefined, input.record === 'use');
      case 'skill_evidence': {
        const answer = answerSkillEvidence(await ctx.readEvidence?.(), input.name as string);
        return answer.ok ? ok(answer.text) : fail(answer.text);
      }
    }
  } catch (error) {
    if (isSkillgardenError(error)) return fail(`${error.message}\n(code: ${error.code})`);
    return fail(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function listSkills(ctx: ToolContext, category: string | undefined, includeHidden: boolean): string {
  const now = ctx.now();
  const skills = ctx.registry
    .list()
    .filter((e) => category === undefined || e.category === category)
    .map((e) => {
      const counters = ctx.registry.usageOf(e.name);
      const hidden = !e.modelInvocable || !ctx.registry.isAwake(e.name) || isInactive(counters, now, { pinned: e.pinned });
      return { entry: e, hidden, counters };
    })
    .filter((s) => includeHidden || !s.hidden)
    .map(({ entry, hidden, counters }) => ({
      name: entry.name,
      description: entry.description,
      ...(entry.whenToUse ? { when_to_use: entry.whenToUse } : {}),
      ...(entry.category ? { category: entry.category } : {}),
      ...(entry.argumentHint ? { argument_hint: entry.argumentHint } : {}),
      ...(includeHidden ? { hidden } : {}),
      use_count: counters?.use_count ?? 0,
      score: Number(usageScore(counters, now).toFixed(4)),
    }));
  return `${JSON.stringify({ skills }, null, 2)}\n`;
}

async function viewSkill(
  ctx: ToolContext,
  input: { name: string; file_path?: string; arguments?: string; session_id?: string },
): Promise<ToolAnswer> {
  const sessionId = input.session_id ?? ctx.sessionId;
  if (input.file_path !== undefined) return readSupportFile(ctx, input.name, input.file_path);
  const result = await ctx.registry.load(input.name, {
    sessionId,
    ...(input.arguments === undefined ? {} : { arguments: input.arguments }),
  });
  if (!isLoaded(result)) return fail(renderLoadResult(result));
  await ctx.registry.recordUsage(result.name, 'view');
  return ok(renderLoadResult(result));
}

async function readSupportFile(ctx: ToolContext, name: string, path: string): Promise<ToolAnswer> {
  const entry = ctx.registry.get(name);
  if (!entry) return fail(renderLoadResult(await ctx.registry.load(name, { sessionId: ctx.sessionId })));
  const problem = supportPathProblem(path);
  if (problem) return fail(`cannot read "${path}" in ${entry.name}: ${problem}. Call skill_view without file_path for SKILL.md.`);
  try {
    const real = await realpath(join(entry.dir, path));
    const root = await realpath(entry.dir);
    // A symlinked support file must not expose what lies outside the skill.
    if (!real.startsWith(`${root}${sep}`)) return fail(`${path} in ${entry.name} points outside the skill folder; it is not shown.`);
    const bytes = await readFile(real);
    if (bytes.byteLength > maxSupportFileBytes) return fail(`${path} is ${bytes.byteLength} bytes; only files up to 1 MiB are shown.`);
    return ok(bytes.toString('utf8'));
  } catch {
    return fail(`${entry.name} has no file ${path}. Its SKILL.md links to the support files it has.`);
  }
}

async function usage(ctx: ToolContext, name: string | undefined, record: boolean): Promise<ToolAnswer> {
  if (record && name === undefined) return fail('skill_usage record: "use" needs `name`: the skill you used.');
  const entries = name === undefined ? ctx.registry.list() : [ctx.registry.get(name)].filter((e) => e !== undefined);
  if (name !== undefined && entries.length === 0)
    return fail(renderLoadResult(await ctx.registry.load(name, { sessionId: ctx.sessionId })));
  if (record && name !== undefined) await ctx.registry.recordUsage(name, 'use');
  const now = ctx.now();
  const skills = entries.map((e) => ({
    name: e.name,
    ...ctx.registry.usageOf(e.name),
    score: Number(usageScore(ctx.registry.usageOf(e.name), now).toFixed(4)),
  }));
  return ok(`${JSON.stringify({ skills }, null, 2)}\n`);
}
