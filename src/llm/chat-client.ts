import { SkillgardenError } from '../core/errors.js';

/** An OpenAI-compatible chat-completions endpoint (`POST {baseUrl}/chat/completions`). */
export interface ChatClientOptions {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Per attempt; default 60 s. */
  timeoutMs?: number;
  /** Attempts after the first, for 429, 5xx, timeouts and network errors; default 3. */
  retries?: number;
  /** First backoff; doubles each retry, and a `Retry-After` header (seconds) is honoured up to 30 s. Default 500 ms. */
  backoffMs?: number;
  /** The network edge, injectable; default the global fetch. */
  fetch?: typeof fetch;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type LlmErrorCode = 'llm/http' | 'llm/timeout' | 'llm/network' | 'llm/bad-response';

/** The settings from the environment, or undefined when no endpoint is configured. */
export function readChatClientOptions(env: Readonly<Record<string, string | undefined>>): ChatClientOptions | undefined {
  const baseUrl = env.SKILLGARDEN_LLM_BASE_URL;
  const model = env.SKILLGARDEN_LLM_MODEL;
  if (!baseUrl || !model) return undefined;
  return { baseUrl, model, ...(env.SKILLGARDEN_LLM_API_KEY ? { apiKey: env.SKILLGARDEN_LLM_API_KEY } : {}) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function retryable(error: unknown): boolean {
  if (!(error instanceof SkillgardenError)) return false;
  const status = error.data.status;
  return (
    error.code === 'llm/timeout' ||
    error.code === 'llm/network' ||
    (error.code === 'llm/http' && (status === 429 || (typeof status === 'number' && status >= 500)))
  );
}

/** The assistant's reply text; retries what is worth retrying, then throws a `llm/*` error. */
export async function requestChatCompletion(options: ChatClientOptions, messages: readonly ChatMessage[]): Promise<string> {
  const retries = options.retries ?? 3;
  let delay = options.backoffMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    try {
      return await requestOnce(options, messages);
    } catch (error) {
      if (attempt >= retries || !retryable(error)) throw error;
      const retryAfter = error instanceof SkillgardenError && typeof error.data.retryAfterMs === 'number' ? error.data.retryAfterMs : 0;
      await sleep(Math.max(delay, Math.min(retryAfter, 30_000)));
      delay *= 2;
    }
  }
}

/** `{baseUrl}/chat/completions`, a query kept where it belongs (after the path: some gateways take the key there). */
function completionsUrl(baseUrl: string): string {
  try {
    const parsed = new URL(baseUrl);
    parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/chat/completions`;
    return parsed.toString();
  } catch {
    return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }
}

/** The endpoint as messages name it: no user, password or query (where keys hide), so no error echoes a credential. */
export function describeEndpoint(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '<the SKILLGARDEN_LLM_BASE_URL endpoint>';
  }
}

async function requestOnce(options: ChatClientOptions, messages: readonly ChatMessage[]): Promise<string> {
  const target = completionsUrl(options.baseUrl);
  const url = describeEndpoint(target);
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await (options.fetch ?? fetch)(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify({ model: options.model, messages, temperature: 0 }),
      signal: controller.signal,
    });
    const text = await response.text();
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new SkillgardenError<LlmErrorCode>('llm/http', `${url} answered ${response.status}: ${text.slice(0, 200)}`, {
        data: { status: response.status, ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}) },
      });
    }
    return readReply(url, text);
  } catch (error) {
    if (error instanceof SkillgardenError) throw error;
    if (controller.signal.aborted)
      throw new SkillgardenError<LlmErrorCode>('llm/timeout', `${url} did not answer within ${timeoutMs} ms`, { cause: error });
    // The runtime's own message may quote the URL it was given: never with its credentials.
    const reason = (error as Error).message.split(target).join(url);
    throw new SkillgardenError<LlmErrorCode>('llm/network', `${url} could not be reached: ${reason}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

function readReply(url: string, text: string): string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SkillgardenError<LlmErrorCode>('llm/bad-response', `${url} did not answer JSON: ${text.slice(0, 120)}`, { cause: error });
  }
  const content = (data as { choices?: Array<{ message?: { content?: unknown } }> })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string')
    throw new SkillgardenError<LlmErrorCode>('llm/bad-response', `${url} answered without choices[0].message.content`);
  return content;
}
