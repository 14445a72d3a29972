/**
 * JSON.parse with the line of every value, so a manifest finding lands on the
 * line that holds the bad path (JSON.parse itself keeps no positions).
 */

export type JsonPath = readonly (string | number)[];

export interface LocatedJson {
  value: unknown;
  /** 1-based line of the value at a path (`a/0/b`); the document's first line when unknown. */
  lineOf(path: JsonPath): number;
}

export type JsonParse = { ok: true; json: LocatedJson } | { ok: false; line: number; message: string };

export function parseJsonWithLines(text: string): JsonParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? text.slice(0, Number(at[1])).split('\n').length : 1;
    return { ok: false, line, message };
  }
  const lines = new Map<string, number>();
  try {
    locate(text, lines);
  } catch {
    // JSON.parse accepted it: the locator only ever loses positions, never the value.
  }
  return { ok: true, json: { value, lineOf: (path) => lines.get(path.join('/')) ?? 1 } };
}

/** Walks the text as JSON.parse did, recording the line where each value starts. */
function locate(text: string, lines: Map<string, number>): void {
  let i = 0;
  let line = 1;
  const skip = (): void => {
    while (i < text.length && /\s/.test(text[i]!)) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    skip();
    lines.set(path, line);
    const c = text[i];
    if (c === '{') {
      i++;
      skip();
      if (text[i] === '}') return void i++;
      for (;;) {
        skip();
        const key = readString();
        skip();
        i++; // ':'
        value(path === '' ? key : `${path}/${key}`);
        skip();
        if (text[i++] === '}') return;
      }
    }
    if (c === '[') {
      i++;
      skip();
      if (text[i] === ']') return void i++;
      for (let n = 0; ; n++) {
        value(path === '' ? String(n) : `${path}/${n}`);
        skip();
        if (text[i++] === ']') return;
      }
    }
    if (c === '"') return void readString();
    while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
  };
  value('');
}
