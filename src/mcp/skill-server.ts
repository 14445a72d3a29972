import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { isLoaded, renderLoadResult } from '../registry/load-result.js';
import { installSkillsExtension, skillsExtensionCapability } from './skills-extension.js';
import { answerTool, type ToolContext } from './tool-handlers.js';
import { inputSchemas, toolNames, toolSummaries, type ToolName } from './tool-definitions.js';

export interface SkillServer {
  server: Server;
  /** Stops telling the client about library changes. */
  dispose: () => void;
}

/**
 * The MCP face of the registry: five tools (skills_list, skill_view,
 * skill_manage, skill_usage, skill_evidence) and one prompt per user-invocable skill, so
 * clients offer them as slash commands. When the library changes, the client
 * hears that both lists changed (the skill_view description carries the index).
 * The same library is served by the MCP Skills extension (skills-extension.ts).
 */
export function createSkillServer(ctx: ToolContext, info: { version: string }): SkillServer {
  const server = new Server(
    { name: 'skillgarden', version: info.version },
    {
      capabilities: {
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { listChanged: true },
        extensions: skillsExtensionCapability,
      },
      instructions: 'Skills are procedures you can load. Call skill_view NAME before doing a task a listed skill covers, and follow it.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolNames.map((name) => ({
      name,
      description: name === 'skill_view' ? ctx.registry.buildToolDescription() : toolSummaries[name],
      inputSchema: inputSchemas[name],
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = request.params.name;
    if (!(toolNames as readonly string[]).includes(tool)) {
      return { content: [{ type: 'text', text: `no tool "${tool}"; the tools are ${toolNames.join(', ')}` }], isError: true };
    }
    const answer = await answerTool(ctx, tool as ToolName, request.params.arguments);
    return { content: [{ type: 'text', text: answer.text }], isError: answer.isError };
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: ctx.registry.slashCommands().map((entry) => ({
      name: entry.name,
      description: entry.whenToUse ? `${entry.description} ${entry.whenToUse}` : entry.description,
      arguments: [{ name: 'arguments', description: entry.argumentHint ?? 'What to apply the skill to (optional).', required: false }],
    })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const raw = request.params.arguments?.arguments ?? '';
    const result = await ctx.registry.invokeSlash(`/${request.params.name} ${raw}`, { sessionId: ctx.sessionId });
    if (!isLoaded(result)) throw new McpError(ErrorCode.InvalidParams, renderLoadResult(result).trim());
    await ctx.registry.recordUsage(result.name, 'use');
    return {
      description: ctx.registry.get(result.name)?.description,
      messages: [{ role: 'user', content: { type: 'text', text: renderLoadResult(result) } }],
    };
  });

  installSkillsExtension(server, ctx.registry, ctx.skillVersions);

  const stop = ctx.registry.onChange(() => {
    // The client may not be listening yet (or any more): a lost notification only delays its next listing.
    server.sendToolListChanged().catch(() => undefined);
    server.sendPromptListChanged().catch(() => undefined);
    // The extension's skills are resources: a host re-lists (skills/list) when the resource list changes.
    server.sendResourceListChanged().catch(() => undefined);
  });
  return { server, dispose: stop };
}
