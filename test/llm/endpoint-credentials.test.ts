import { describe, expect, it } from 'vitest';
import { describeEndpoint, requestChatCompletion } from '../../src/llm/chat-client.js';

describe("the model endpoint's credentials never reach a message", () => {
  it('names the endpoint without its user, password or query', () => {
    expect(describeEndpoint('https://bob:s3cret@llm.example/v1/chat/completions?api-key=k3y')).toBe(
      'https://llm.example/v1/chat/completions',
    );
  });

  it('a failed call says where it went, not with what', async () => {
    const failing = requestChatCompletion(
      { baseUrl: 'http://bob:s3cret@127.0.0.1:9/v1?api-key=k3y', model: 'm', timeoutMs: 500, retries: 0 },
      [{ role: 'user', content: 'hi' }],
    );
    await expect(failing).rejects.toThrow(/127\.0\.0\.1:9/);
    await failing.catch((error: Error) => {
      expect(error.message).not.toMatch(/s3cret|k3y|bob/);
    });
  });
});
