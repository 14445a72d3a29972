import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * GitHub's git data API (blobs, trees, commits, refs) for the fake GitHub,
 * on the real bare origin: what the Action makes through the API is then
 * what `git fetch` reads back, so a test compares it with the push path
 * object for object. Answers and refusals follow GitHub's documented ones
 * (422 for a missing object, an existing ref, a non-fast-forward update).
 */
export interface GitDataCall {
  params: Record<string, string>;
  body: Record<string, unknown>;
  send: (status: number, body: unknown) => void;
}

/** Commits the fake made through the API, as GitHub signs them: their ids. */
export interface GitDataState {
  signed: Set<string>;
}

// GitHub commits for GITHUB_TOKEN as github-actions[bot], and is itself the committer of what it makes.
const apiIdentity = {
  GIT_AUTHOR_NAME: 'github-actions[bot]',
  GIT_AUTHOR_EMAIL: '41898282+github-actions[bot]@users.noreply.github.com',
  GIT_COMMITTER_NAME: 'GitHub',
  GIT_COMMITTER_EMAIL: 'noreply@github.com',
};

function run(bare: string, args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): string | null {
  try {
    return execFileSync('git', args, {
      cwd: bare,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir(), ...options.env },
      input: options.input,
      encoding: 'utf8',
      stdio: ['pipe', 'pipe', 'pipe'],
    }).trim();
  } catch {
    return null;
  }
}

const typeOf = (bare: string, sha: unknown) =>
  typeof sha === 'string' && /^[0-9a-f]{40}$/.test(sha) ? run(bare, ['cat-file', '-t', sha]) : null;
const refUrl = (ref: string) => `https://api.github.com/repos/fake/git/${ref}`;

function refView(bare: string, ref: string, sha: string) {
  return {
    ref,
    node_id: 'REF_fake',
    url: refUrl(ref),
    object: { sha, type: run(bare, ['cat-file', '-t', sha]) ?? 'commit', url: refUrl(sha) },
  };
}

export function answerGitData(bare: string, state: GitDataState, operationId: string, call: GitDataCall): boolean {
  const { params, body, send } = call;
  const invalid = (message: string) => send(422, { message, documentation_url: 'https://docs.github.com/rest/git' });
  switch (operationId) {
    case 'git/create-blob': {
      const bytes = Buffer.from(String(body.content), body.encoding === 'base64' ? 'base64' : 'utf8');
      const sha = run(bare, ['hash-object', '-w', '--stdin'], { input: bytes });
      if (sha === null) return (invalid('could not store the blob'), true);
      send(201, { sha, url: refUrl(`blobs/${sha}`) });
      return true;
    }
    case 'git/create-tree': {
      const index = join(tmpdir(), `fake-github-index-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
      const env = { GIT_INDEX_FILE: index };
      try {
        const baseTree = body.base_tree as string | undefined;
        if (baseTree !== undefined) {
          if (typeOf(bare, baseTree) !== 'tree') return (invalid(`base_tree ${baseTree} is not a tree`), true);
          run(bare, ['read-tree', baseTree], { env });
        } else run(bare, ['read-tree', '--empty'], { env });
        // `--index-info` works in a bare repository (mode 0 removes a path), as GitHub's own trees need no work tree.
        const lines: string[] = [];
        for (const entry of body.tree as { path: string; mode: string; type: string; sha: string | null }[]) {
          if (entry.sha === null) {
            lines.push(`0 ${'0'.repeat(40)}\t${entry.path}`);
            continue;
          }
          const wanted = entry.type === 'commit' ? null : entry.type;
          if (wanted !== null && typeOf(bare, entry.sha) !== wanted)
            return (invalid(`tree.sha ${entry.sha} is not a valid ${wanted}`), true);
          lines.push(`${entry.mode} ${entry.sha}\t${entry.path}`);
        }
        if (run(bare, ['update-index', '--index-info'], { env, input: `${lines.join('\n')}\n` }) === null)
          return (invalid('a tree entry is invalid'), true);
        const sha = run(bare, ['write-tree'], { env });
        if (sha === null) return (invalid('could not write the tree'), true);
        send(201, { sha, url: refUrl(`trees/${sha}`), truncated: false, tree: [] });
        return true;
      } finally {
        rmSync(index, { force: true });
      }
    }
    case 'git/create-commit': {
      if (typeOf(bare, body.tree) !== 'tree') return (invalid(`tree ${String(body.tree)} does not exist`), true);
      const parents = (body.parents as string[] | undefined) ?? [];
      if (parents.some((p) => typeOf(bare, p) !== 'commit')) return (invalid('a parent is not a commit'), true);
      const date = `${Math.floor(Date.now() / 1000)} +0000`;
      const sha = run(bare, ['commit-tree', String(body.tree), ...parents.flatMap((p) => ['-p', p])], {
        input: String(body.message),
        env: { ...apiIdentity, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
      });
      if (sha === null) return (invalid('could not create the commit'), true);
      state.signed.add(sha);
      send(201, {
        sha,
        node_id: 'C_fake',
        url: refUrl(`commits/${sha}`),
        html_url: `https://github.com/fake/commit/${sha}`,
        author: { name: apiIdentity.GIT_AUTHOR_NAME, email: apiIdentity.GIT_AUTHOR_EMAIL, date: new Date().toISOString() },
        committer: { name: apiIdentity.GIT_COMMITTER_NAME, email: apiIdentity.GIT_COMMITTER_EMAIL, date: new Date().toISOString() },
        message: String(body.message),
        tree: { sha: String(body.tree), url: refUrl(`trees/${String(body.tree)}`) },
        parents: parents.map((p) => ({ sha: p, url: refUrl(`commits/${p}`), html_url: `https://github.com/fake/commit/${p}` })),
        verification: { verified: true, reason: 'valid', signature: null, payload: null, verified_at: new Date().toISOString() },
      });
      return true;
    }
    case 'git/get-ref': {
      const ref = `refs/${params.ref ?? ''}`;
      const sha = run(bare, ['rev-parse', '--verify', '--quiet', ref]);
      if (sha === null || sha === '') send(404, { message: 'Not Found' });
      else send(200, refView(bare, ref, sha));
      return true;
    }
    case 'git/create-ref': {
      const ref = String(body.ref);
      if (!/^refs\/[^/]+\/.+/.test(ref)) return (invalid(`${ref} is not a valid ref name`), true);
      if (run(bare, ['rev-parse', '--verify', '--quiet', ref])) return (invalid('Reference already exists'), true);
      if (typeOf(bare, body.sha) !== 'commit') return (invalid('Object does not exist'), true);
      if (run(bare, ['update-ref', ref, String(body.sha), '']) === null) return (invalid(`${ref} is not a valid ref name`), true);
      send(201, refView(bare, ref, String(body.sha)));
      return true;
    }
    case 'git/update-ref': {
      const ref = `refs/${params.ref ?? ''}`;
      const old = run(bare, ['rev-parse', '--verify', '--quiet', ref]);
      if (!old) return (invalid('Reference does not exist'), true);
      const sha = String(body.sha);
      if (typeOf(bare, sha) !== 'commit') return (invalid('Object does not exist'), true);
      if (body.force !== true && run(bare, ['merge-base', '--is-ancestor', old, sha]) === null)
        return (invalid('Update is not a fast forward'), true);
      run(bare, ['update-ref', ref, sha, old]);
      send(200, refView(bare, ref, sha));
      return true;
    }
    default:
      return false;
  }
}
