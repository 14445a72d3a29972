import type { ToolCall } from './types.js';

export interface TokenizeOptions {
  /** `false` uses the bare tool name even where a program was recorded (`Bash`, not `Bash:git`). */
  refine?: boolean;
}

/**
 * The token a call stands for in mining: its tool name, refined by the
 * program for shell tools (`Bash:git`). MCP names (`mcp__server__tool`) stay whole.
 */
export function buildToken(call: ToolCall, options: TokenizeOptions = {}): string {
  return options.refine !== false && call.program !== undefined ? `${call.name}:${call.program}` : call.name;
}

/** Interns strings to small integers: tokens, so mining works on numbers, and the strings detect keeps per session. */
export class TokenTable {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();

  intern(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(token, id);
      this.names.push(token);
    }
    return id;
  }

  get size(): number {
    return this.names.length;
  }
}

/** Tokens of a session's calls, interned. */
export function buildTokenIds(calls: readonly ToolCall[], table: TokenTable, options: TokenizeOptions = {}): Int32Array {
  const ids = new Int32Array(calls.length);
  calls.forEach((call, i) => {
    ids[i] = table.intern(buildToken(call, options));
  });
  return ids;
}

/**
 * Collapses runs of one token (`Bash Bash Bash` → `Bash`). A run's length says
 * little about the procedure, and left in, runs would make `X X`, `X X X`, …
 * the most common windows in nearly every session.
 */
export function collapseRuns(tokens: ArrayLike<number>): Int32Array {
  const out = new Int32Array(tokens.length);
  let n = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as number;
    if (n === 0 || out[n - 1] !== token) {
      out[n] = token;
      n += 1;
    }
  }
  return out.subarray(0, n);
}
