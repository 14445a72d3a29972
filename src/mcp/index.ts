export { createSkillServer, type SkillServer } from './skill-server.js';
export { serveStdio, type ServeOptions } from './serve-stdio.js';
export { answerTool, type ToolContext, type ToolAnswer } from './tool-handlers.js';
export { checkToolArguments } from './check-arguments.js';
export { inputSchemas, toolNames, manageActions, type ToolName, type ManageAction } from './tool-definitions.js';
