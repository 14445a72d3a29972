import type { Source } from '../core/ledger/trailers.js';
import {
  createSkill,
  deleteSkill,
  editSkill,
  patchSkill,
  removeSkillFile,
  writeSkillFile,
  type ManageContext,
  type ManageResult,
} from '../services/manage/index.js';
import type { ManageAction } from './tool-definitions.js';

/** skill_manage's arguments, Hermes's names, checked against the input schema already. */
export interface ManageToolInput {
  action: ManageAction;
  name: string;
  content?: string;
  category?: string;
  old_string?: string;
  new_string?: string;
  replace_all?: boolean;
  file_path?: string;
  file_content?: string;
  source?: Source;
  message?: string;
}

/** Runs one skill_manage call as the agent: one ledger commit, or a refusal (SkillgardenError) saying what to do. */
export function runManageAction(base: ManageContext, input: ManageToolInput): Promise<ManageResult> {
  const ctx: ManageContext = {
    ...base,
    actor: 'agent',
    source: input.source ?? base.source ?? 'foreground',
    ...(input.message ? { message: input.message } : {}),
  };
  const text = (value: string | undefined) => value ?? '';
  switch (input.action) {
    case 'create':
      return createSkill(ctx, { name: input.name, content: text(input.content), ...(input.category ? { category: input.category } : {}) });
    case 'edit':
      return editSkill(ctx, { name: input.name, content: text(input.content) });
    case 'patch':
      return patchSkill(ctx, {
        name: input.name,
        old: text(input.old_string),
        new: text(input.new_string),
        ...(input.file_path ? { file: input.file_path } : {}),
        ...(input.replace_all ? { all: true } : {}),
      });
    case 'delete':
      return deleteSkill(ctx, { name: input.name });
    case 'write_file':
      return writeSkillFile(ctx, { name: input.name, path: text(input.file_path), content: text(input.file_content) });
    case 'remove_file':
      return removeSkillFile(ctx, { name: input.name, path: text(input.file_path) });
  }
}

export function renderManageResult(result: ManageResult): string {
  const warnings = Array.isArray(result.details.warnings) ? (result.details.warnings as { message: string; hint: string }[]) : [];
  const lines = [
    result.staged
      ? `${result.action} ${result.skills.join(', ')}: staged for approval on branch ${result.staged.branch} (${result.commit.slice(0, 12)}; ${result.files.join(', ')}): the security scan judged it ${result.staged.verdict}, so it is not in the library until a person merges the branch. Do not retry the write; tell the user it waits for their approval.`
      : `${result.action} ${result.skills.join(', ')}: committed ${result.commit.slice(0, 12)} (${result.files.join(', ')})`,
  ];
  for (const warning of warnings) lines.push(`warning: ${warning.message} — ${warning.hint}`);
  if (typeof result.details.archivedTo === 'string')
    lines.push(`archived to ${result.details.archivedTo}; restore with \`skillgarden restore ${result.skills[0]}\``);
  return `${lines.join('\n')}\n`;
}
