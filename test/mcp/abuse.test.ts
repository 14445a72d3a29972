import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoWith } from '../helpers/repo.js';
import { skillText } from '../helpers/tmp.js';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'skillgarden.js');

/** The real server on stdio, read line by line: each test writes raw bytes, as a broken or hostile client would. */
function startServer(): { child: ChildProcessWithoutNullStreams; next: () => Promise<Record<string, unknown>> } {
  const dir = repoWith({ 'skills/deploy/SKILL.md': skillText('deploy') });
  const child = spawn(process.execPath, [bin, 'mcp'], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  const queue: Record<string, unknown>[] = [];
  const waiting: ((v: Record<string, unknown>) => void)[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const message = JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>;
      buffer = buffer.slice(nl + 1);
      const take = waiting.shift();
      if (take) take(message);
      else queue.push(message);
    }
  });
  const next = () => new Promise<Record<string, unknown>>((resolve) => (queue.length ? resolve(queue.shift()!) : waiting.push(resolve)));
  return { child, next };
}

let running: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  running?.kill();
  running = undefined;
});

const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

describe('the MCP server answers JSON-RPC under abuse and keeps serving', () => {
  it('-32700 for a line that is not JSON, -32600 (with the id) for invalid requests, then serves a real request', async () => {
    const { child, next } = startServer();
    running = child;
    child.stdin.write('this is not json\n');
    expect(await next()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    child.stdin.write('{"jsonrpc":"2.0","id":7}\n');
    expect(await next()).toMatchObject({ id: 7, error: { code: -32600 } });
    child.stdin.write('{"jsonrpc":"1.0","id":"x","method":"ping"}\n');
    expect(await next()).toMatchObject({ id: 'x', error: { code: -32600 } });
    child.stdin.write('[1,2]\n42\n');
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    child.stdin.write(`${JSON.stringify(init)}\n`);
    expect(await next()).toMatchObject({ id: 1, result: { serverInfo: expect.anything() } });
  });

  it('answers a 30 MB line with an error and goes on serving', async () => {
    const { child, next } = startServer();
    running = child;
    const big = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${'x'.repeat(30 * 1024 * 1024)}"}}\n`;
    child.stdin.write(big);
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    child.stdin.write(`${JSON.stringify(init)}\n`);
    expect(await next()).toMatchObject({ id: 1, result: expect.anything() });
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(await next()).toMatchObject({ id: 2, result: {} });
    expect(child.exitCode).toBeNull();
  }, 60_000);
});
