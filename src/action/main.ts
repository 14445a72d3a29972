/**
 * The Action's entry, bundled into dist/index.js: the only module that
 * imports @actions/core, touches the process and decides the step's fate.
 */
import * as core from '@actions/core';
import { isSkillgardenError } from '../core/errors.js';
import { runCurateMode } from './curate-mode.js';
import { authSecrets } from './git.js';
import { readInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { runUpdateMode } from './update-mode.js';
import { runValidateMode } from './validate-mode.js';

const io: ActionIo = {
  info: (message) => core.info(message),
  warning: (message) => core.warning(message),
  annotate: ({ level, message, title, file, line, column }) => {
    const properties = {
      title,
      ...(file ? { file } : {}),
      ...(line ? { startLine: line } : {}),
      ...(column ? { startColumn: column } : {}),
    };
    if (level === 'error') core.error(message, properties);
    else if (level === 'warning') core.warning(message, properties);
    else core.notice(message, properties);
  },
  appendSummary: async (markdown) => {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await core.summary.addRaw(markdown, true).write();
  },
  setOutput: (name, value) => core.setOutput(name, value),
  setSecret: (secret) => core.setSecret(secret),
};

async function main(): Promise<void> {
  try {
    const inputs = readInputs(process.env);
    for (const secret of authSecrets(inputs.token)) core.setSecret(secret);
    const run = { validate: runValidateMode, curate: runCurateMode, update: runUpdateMode }[inputs.mode];
    const result = await run(inputs, io);
    if (result.failure) core.setFailed(result.failure);
  } catch (error) {
    const code = isSkillgardenError(error) ? ` [${error.code}]` : '';
    core.setFailed(`${(error as Error).message}${code}`);
  }
}

await main();
