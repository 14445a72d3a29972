import type { Author, CommitInfo } from './ledger.js';
import type { TreeEntry } from './object-store.js';

/** Git's binary tree format: `<mode> <name>\0<20-byte id>` repeated. */
export function parseTreeObject(content: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (let offset = 0; offset < content.length;) {
    const space = content.indexOf(32, offset);
    const nul = content.indexOf(0, space);
    const mode = content.toString('latin1', offset, space).padStart(6, '0');
    entries.push({ mode, name: content.toString('utf8', space + 1, nul), oid: content.toString('hex', nul + 1, nul + 21) });
    offset = nul + 21;
  }
  return entries;
}

export function parseCommitObject(oid: string, content: Buffer): CommitInfo {
  const text = content.toString('utf8');
  const split = text.indexOf('\n\n');
  const headers = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  let author: Required<Author> = { name: '', email: '', timestamp: 0, timezoneOffset: 0 };
  for (const line of headers.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
    else if (line.startsWith('author ')) author = parseIdentity(line.slice(7));
  }
  return { oid, tree, parents, message, author };
}

function parseIdentity(text: string): Required<Author> {
  const match = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(text);
  if (!match) return { name: text, email: '', timestamp: 0, timezoneOffset: 0 };
  const minutes = Number(match[5]) * 60 + Number(match[6]);
  return {
    name: match[1] ?? '',
    email: match[2] ?? '',
    timestamp: Number(match[3]),
    timezoneOffset: match[4] === '+' ? -minutes : minutes,
  };
}
