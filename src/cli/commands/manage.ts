import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SkillgardenError } from '../../core/errors.js';
import {
  createSkill,
  deleteSkill,
  editSkill,
  patchSkill,
  removeSkillFile,
  writeSkillFile,
  type ManageContext,
  type ManageResult,
} from '../../services/manage/index.js';
import { exitCodes, type Command, type CommandContext } from '../context.js';
import { openManageContext, readContent, writerOptions } from '../open-repo.js';
import { renderManageResult } from '../render-result.js';

type Action = (ctx: ManageContext, context: CommandContext, args: string[]) => Promise<ManageResult>;

const actions: Record<string, { args: string[]; run: Action }> = {
  create: {
    args: ['NAME'],
    run: async (ctx, c, [name = '']) => {
      const category = typeof c.values.category === 'string' ? c.values.category : undefined;
      const root = typeof c.values.root === 'string' ? c.values.root : undefined;
      return createSkill(ctx, {
        name,
        content: await readContent(c.io, c.values.content, 'create'),
        ...(category ? { category } : {}),
        ...(root === undefined ? {} : { root }),
      });
    },
  },
  edit: {
    args: ['NAME'],
    run: async (ctx, c, [name = '']) => editSkill(ctx, { name, content: await readContent(c.io, c.values.content, 'edit') }),
  },
  patch: {
    args: ['NAME'],
    run: async (ctx, c, [name = '']) => {
      if (typeof c.values.old !== 'string' || typeof c.values.new !== 'string') {
        throw new SkillgardenError('cli/usage', 'patch needs --old TEXT and --new TEXT');
      }
      const file = typeof c.values.file === 'string' ? c.values.file : undefined;
      return patchSkill(ctx, { name, old: c.values.old, new: c.values.new, all: c.values.all === true, ...(file ? { file } : {}) });
    },
  },
  delete: { args: ['NAME'], run: async (ctx, _c, [name = '']) => deleteSkill(ctx, { name }) },
  'write-file': {
    args: ['NAME', 'PATH'],
    run: async (ctx, c, [name = '', path = '']) => {
      const content = c.values.content === '-' ? await readContent(c.io, '-', 'write-file') : await readBytes(c, c.values.content);
      return writeSkillFile(ctx, { name, path, content });
    },
  },
  'remove-file': { args: ['NAME', 'PATH'], run: async (ctx, _c, [name = '', path = '']) => removeSkillFile(ctx, { name, path }) },
};

export const manageCommand: Command = {
  name: 'manage',
  summary: 'the skill_manage actions: create, edit, patch, delete, write-file, remove-file (each one commit)',
  usage:
    'manage create NAME --content FILE [--category C] [--root DIR] | edit NAME --content FILE | patch NAME --old TEXT --new TEXT [--file PATH] [--all] | ' +
    'delete NAME | write-file NAME PATH --content FILE | remove-file NAME PATH   [--actor user|agent|curator] [--source foreground|background] [--message TEXT]',
  options: {
    ...writerOptions,
    content: { type: 'string' },
    category: { type: 'string' },
    root: { type: 'string' },
    old: { type: 'string' },
    new: { type: 'string' },
    file: { type: 'string' },
    all: { type: 'boolean' },
  },
  async run(context) {
    const [actionName = '', ...args] = context.positionals;
    const action = actions[actionName];
    if (!action)
      throw new SkillgardenError('cli/usage', `unknown manage action "${actionName}"; choose one of: ${Object.keys(actions).join(', ')}`);
    if (args.length !== action.args.length) {
      throw new SkillgardenError('cli/usage', `manage ${actionName} takes ${action.args.join(' ')}; got ${args.length} argument(s)`);
    }
    const ctx = await openManageContext(context);
    try {
      const result = await action.run(ctx, context, args);
      context.io.stdout.write(context.global.json ? `${JSON.stringify(result, null, 2)}\n` : renderManageResult(result));
      return exitCodes.ok;
    } finally {
      await ctx.ledger.close();
    }
  },
};

async function readBytes(context: CommandContext, file: unknown): Promise<Uint8Array> {
  if (typeof file !== 'string') throw new SkillgardenError('cli/usage', 'write-file needs --content FILE (or - for standard input)');
  try {
    return await readFile(resolve(context.global.repo, file));
  } catch (error) {
    throw new SkillgardenError('cli/usage', `cannot read --content ${file}: ${(error as Error).message}`, { cause: error });
  }
}
