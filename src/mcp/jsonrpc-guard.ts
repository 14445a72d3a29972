import { PassThrough } from 'node:stream';

/** A request line longer than this is answered with an error and dropped (the SDK's reader would buffer it whole). */
export const maxLineBytes = 4 * 1024 * 1024;

type Id = string | number | null;

function errorLine(id: Id, code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`;
}

function idOf(value: unknown): Id {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = value.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Why a parsed line is not a JSON-RPC 2.0 message the server should see, or undefined when it is one. */
function invalidReason(value: unknown): string | undefined {
  if (Array.isArray(value)) return 'batches are not supported: send one JSON-RPC message per line';
  if (typeof value !== 'object' || value === null) return 'a JSON-RPC message is an object';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if ('method' in message) return typeof message.method === 'string' ? undefined : 'method must be a string';
  // A response from the client (to a server request) has an id and a result or an error.
  if ('id' in message && ('result' in message || 'error' in message)) return undefined;
  return 'a request needs a method';
}

export interface GuardedInput {
  /** The lines that are JSON-RPC messages, for the SDK's transport. */
  stream: NodeJS.ReadableStream;
}

/**
 * Answers what the SDK's stdio transport would drop without a word: a line
 * that is not JSON (-32700), one that is not a JSON-RPC request (-32600,
 * with its id when it has one), and a line over the size limit (-32600,
 * dropped as it streams in, never buffered whole). Everything else passes
 * through unchanged, so the server keeps serving whatever a client sends.
 */
export function guardJsonRpcInput(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): GuardedInput {
  const out = new PassThrough();
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overflow = false;

  const line = (bytes: Buffer) => {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      output.write(errorLine(null, -32700, 'Parse error: the line is not JSON. Send one JSON-RPC message per line.'));
      return;
    }
    const reason = invalidReason(value);
    if (reason) output.write(errorLine(idOf(value), -32600, `Invalid Request: ${reason}`));
    else out.write(`${text}\n`);
  };

  const tooLong = () => output.write(errorLine(null, -32600, `Invalid Request: the line is over ${maxLineBytes} bytes and was dropped`));

  input.on('data', (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a)) {
      const head = data.subarray(0, nl);
      if (overflow || pendingBytes + head.length > maxLineBytes) {
        if (!overflow) tooLong();
        overflow = false;
      } else line(Buffer.concat([...pending, head]));
      pending = [];
      pendingBytes = 0;
      data = data.subarray(nl + 1);
    }
    if (data.length === 0 || overflow) return;
    if (pendingBytes + data.length > maxLineBytes) {
      // Answer as soon as the limit is passed; the rest of the line is skipped up to its newline.
      tooLong();
      overflow = true;
      pending = [];
      pendingBytes = 0;
      return;
    }
    pending.push(data);
    pendingBytes += data.length;
  });
  input.on('end', () => {
    if (!overflow && pendingBytes > 0) line(Buffer.concat(pending));
    out.end();
  });
  input.on('error', (error: Error) => out.destroy(error));
  return { stream: out };
}
