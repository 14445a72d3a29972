/**
 * `skill://<skill-path>/<file-path>` addresses (MCP Skills extension, SEP-2640):
 * the skill path is the skill's folder relative to the skills root, so its
 * last segment is the skill's name and the name is recoverable from the URI.
 */
export const skillScheme = 'skill://';

export function skillFileUri(skillPath: string, file: string): string {
  return `${skillScheme}${skillPath}/${file}`;
}

/** A directory resource: written without a trailing slash. */
export function skillDirUri(skillPath: string, dir: string): string {
  return dir === '' ? `${skillScheme}${skillPath}` : `${skillScheme}${skillPath}/${dir}`;
}

/** The path after `skill://`, or undefined for another scheme or a path no file could have (`..`, `.`, empty segments). */
export function skillUriPath(uri: string): string | undefined {
  if (!uri.startsWith(skillScheme)) return undefined;
  const path = uri.slice(skillScheme.length);
  const segments = path.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return undefined;
  return path;
}

const mimeTypes: Record<string, string> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'application/x-sh',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  pdf: 'application/pdf',
  zip: 'application/zip',
};

export function mimeTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  const ext = dot < 0 ? '' : file.slice(dot + 1).toLowerCase();
  return mimeTypes[ext] ?? 'application/octet-stream';
}

/** Opaque cursors: the last key of the previous page, so a page boundary survives skills added or removed meanwhile. */
export function encodeCursor(after: string): string {
  return Buffer.from(JSON.stringify({ after }), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && typeof (value as { after?: unknown }).after === 'string'
      ? (value as { after: string }).after
      : undefined;
  } catch {
    return undefined;
  }
}

export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/** Items sorted by `key`, from just after the cursor's key, `size` at a time. */
export function paginate<T>(items: readonly T[], key: (item: T) => string, after: string | undefined, size: number): Page<T> {
  const start = after === undefined ? 0 : items.findIndex((item) => key(item) > after);
  const rest = start < 0 ? [] : items.slice(start);
  const page = rest.slice(0, size);
  const last = page[page.length - 1];
  return { items: page, nextCursor: rest.length > size && last !== undefined ? encodeCursor(key(last)) : undefined };
}
