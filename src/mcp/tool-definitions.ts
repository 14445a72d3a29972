/** The MCP tools' names and input schemas (JSON Schema 2020-12, as MCP clients read them). */
export const toolNames = ['skills_list', 'skill_view', 'skill_manage', 'skill_usage', 'skill_evidence'] as const;
export type ToolName = (typeof toolNames)[number];

export const manageActions = ['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'] as const;
export type ManageAction = (typeof manageActions)[number];

type JsonSchema = { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };

const name = { type: 'string', minLength: 1, description: 'The skill name (its folder name) as listed by skills_list.' };

export const inputSchemas: Record<ToolName, JsonSchema> = {
  skills_list: {
    type: 'object',
    properties: {
      category: { type: 'string', description: 'Only skills in this category folder.' },
      include_hidden: { type: 'boolean', description: 'Also list dormant, inactive and non-model-invocable skills (default false).' },
    },
    additionalProperties: false,
  },
  skill_view: {
    type: 'object',
    properties: {
      name,
      file_path: {
        type: 'string',
        description: 'A support file to read instead of SKILL.md, relative to the skill folder (e.g. references/api.md).',
      },
      arguments: { type: 'string', description: 'Arguments for the skill ($ARGUMENTS, $0, $1…), as after a slash command.' },
      session_id: { type: 'string', description: 'The session id substituted for ${SESSION_ID}.' },
    },
    required: ['name'],
    additionalProperties: false,
  },
  skill_manage: {
    type: 'object',
    properties: {
      action: { enum: [...manageActions], description: 'create | patch | edit | delete | write_file | remove_file' },
      name,
      content: { type: 'string', description: 'create/edit: the whole SKILL.md (frontmatter and body).' },
      category: { type: 'string', description: 'create: an optional category folder.' },
      old_string: { type: 'string', description: 'patch: the exact text to replace (copy it from skill_view).' },
      new_string: { type: 'string', description: 'patch: the replacement text.' },
      replace_all: { type: 'boolean', description: 'patch: replace every occurrence instead of refusing when there are several.' },
      file_path: {
        type: 'string',
        description: 'patch/write_file/remove_file: a file relative to the skill folder (default SKILL.md for patch).',
      },
      file_content: { type: 'string', description: 'write_file: the file content.' },
      source: {
        enum: ['foreground', 'background'],
        description: 'foreground (a person asked, the default) or background (your own review).',
      },
      message: { type: 'string', description: 'Why: a line for the commit subject.' },
    },
    required: ['action', 'name'],
    additionalProperties: false,
  },
  skill_usage: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'One skill; all skills when omitted.' },
      record: { enum: ['use'], description: 'Record that you used the skill (followed it to do a task).' },
    },
    additionalProperties: false,
  },
  skill_evidence: { type: 'object', properties: { name }, required: ['name'], additionalProperties: false },
};

/** Which arguments each skill_manage action needs beyond `action` and `name`. */
export const manageRequirements: Record<ManageAction, readonly string[]> = {
  create: ['content'],
  edit: ['content'],
  patch: ['old_string', 'new_string'],
  delete: [],
  write_file: ['file_path', 'file_content'],
  remove_file: ['file_path'],
};

export const toolSummaries: Record<Exclude<ToolName, 'skill_view'>, string> = {
  skills_list: 'List the skills in the library (name, description, when to use, category, usage), best used first.',
  skill_manage:
    'Create or change a skill; every change is one git commit. Actions: create (name, content, category?), patch (name, old_string, new_string, replace_all?, file_path?), edit (name, content), delete (name; agents archive instead), write_file (name, file_path, file_content), remove_file (name, file_path). Prefer patch for small fixes.',
  skill_usage: 'Usage counters and scores per skill; pass record: "use" after you followed a skill to do a task.',
  skill_evidence:
    "What one skill did in the recorded sessions: sessions offered, loaded and missed (did its procedure or asked for it without loading it), trigger rate, how sessions went with and without it, and whether each client's skill listing keeps its description.",
};
