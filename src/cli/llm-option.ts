import { SkillgardenError } from '../core/errors.js';
import { readChatClientOptions, type ChatClientOptions } from '../services/llm.js';

/** The usage note of every `--llm` flag. */
export const llmUsage = '--llm: SKILLGARDEN_LLM_BASE_URL, SKILLGARDEN_LLM_MODEL, SKILLGARDEN_LLM_API_KEY';

/** The chat endpoint `--llm` asks for, from the environment; undefined without the flag; a usage error when it is not configured. */
export function readLlmOption(asked: unknown, env: Readonly<Record<string, string | undefined>>): ChatClientOptions | undefined {
  if (asked !== true) return undefined;
  const options = readChatClientOptions(env);
  if (!options)
    throw new SkillgardenError(
      'cli/usage',
      '--llm needs SKILLGARDEN_LLM_BASE_URL and SKILLGARDEN_LLM_MODEL (and SKILLGARDEN_LLM_API_KEY if the endpoint wants one)',
    );
  return options;
}
