import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The git setups people really have (issue #13), each built with real git in
 * a fresh folder whose HOME, global and system configuration are the test's
 * own. `env` is what the ledger and every git call of the test run with.
 */
export interface Setup {
  name: string;
  /** Builds the repository in `root`; returns the folder the ledger opens (a worktree may sit elsewhere). */
  build: (ctx: BuildContext) => string;
  /** Paths the operations write under (default `skills`). */
  /** What the embedded backend must refuse instead of doing it wrong: the error code. */
  embeddedRefuses?: string;
  /** Commits must be signed and `git verify-commit` must accept them. */
  signed?: boolean;
}

export interface BuildContext {
  root: string;
  home: string;
  env: Record<string, string>;
  git: (cwd: string, ...args: string[]) => string;
}

export function isolatedEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
    GNUPGHOME: join(home, '.gnupg'),
  };
}

export function makeContext(): BuildContext {
  const root = mkdtempSync(join(tmpdir(), 'skillgarden-matrix-'));
  const home = join(root, 'home');
  mkdirSync(home, { recursive: true });
  const env = isolatedEnv(home);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { root, home, env, git };
}

/** A repository on `main` with one commit by a person and the identity in its own config. */
function initRepo(ctx: BuildContext, dir: string, extraConfig: string[][] = [], initArgs: string[] = []): string {
  mkdirSync(dir, { recursive: true });
  ctx.git(dir, 'init', '-q', '-b', 'main', ...initArgs);
  for (const [key, value] of [['user.name', 'Ada Repo'], ['user.email', 'ada@repo.example'], ['gc.auto', '0'], ...extraConfig]) {
    ctx.git(dir, 'config', key!, value!);
  }
  writeFileSync(join(dir, 'README.md'), 'a library\n');
  mkdirSync(join(dir, 'skills', 'seed'), { recursive: true });
  writeFileSync(join(dir, 'skills', 'seed', 'SKILL.md'), skillDoc('seed'));
  ctx.git(dir, 'add', '-A');
  ctx.git(dir, 'commit', '-q', '-m', 'initial library');
  return dir;
}

export function skillDoc(name: string, body = 'Steps.\n'): string {
  return `---\nname: ${name}\ndescription: Does ${name} things. Use when ${name} is needed.\n---\n# ${name}\n\n${body}`;
}

function requireTool(tool: string): void {
  // Loud, not skipped: CI must install it (.ci/run: apt-get install -y gnupg gpgsm openssh-client).
  if (spawnSync('which', [tool]).status !== 0)
    throw new Error(`${tool} is not installed; the signing setups need it (apt-get install -y gnupg gpgsm openssh-client)`);
}

export const setups: Setup[] = [
  { name: 'plain repository', build: (ctx) => initRepo(ctx, join(ctx.root, 'repo')) },
  {
    name: 'identity from GIT_AUTHOR_*/GIT_COMMITTER_* (author and committer differ)',
    build: (ctx) => {
      Object.assign(ctx.env, {
        GIT_AUTHOR_NAME: 'Env Author',
        GIT_AUTHOR_EMAIL: 'author@env.example',
        GIT_COMMITTER_NAME: 'Env Committer',
        GIT_COMMITTER_EMAIL: 'committer@env.example',
      });
      return initRepo(ctx, join(ctx.root, 'repo'));
    },
  },
  {
    name: 'identity from XDG global config through include and includeIf gitdir',
    build: (ctx) => {
      const dir = join(ctx.root, 'repo');
      mkdirSync(join(ctx.home, '.config', 'git'), { recursive: true });
      writeFileSync(join(ctx.home, 'people.inc'), '[user]\n\tname = "Included Person"\n');
      writeFileSync(join(ctx.home, 'work.inc'), '[user]\n\temail = work@include-if.example ; a comment\n');
      writeFileSync(
        join(ctx.home, '.config', 'git', 'config'),
        `[include]\n\tpath = ~/people.inc\n[includeIf "gitdir:${ctx.root}/"]\n\tpath = ${join(ctx.home, 'work.inc')}\n[includeIf "gitdir:/nowhere/"]\n\tpath = ~/missing.inc\n`,
      );
      // GIT_CONFIG_GLOBAL would hide the XDG file: this setup reads the real layers.
      delete ctx.env.GIT_CONFIG_GLOBAL;
      initRepo(ctx, dir);
      ctx.git(dir, 'config', '--unset', 'user.name');
      ctx.git(dir, 'config', '--unset', 'user.email');
      return dir;
    },
  },
  {
    name: 'linked worktree',
    build: (ctx) => {
      const main = initRepo(ctx, join(ctx.root, 'repo'));
      const wt = join(ctx.root, 'wt');
      ctx.git(main, 'worktree', 'add', '-q', wt, '-b', 'side');
      return wt;
    },
  },
  {
    name: '.git file (separate git dir)',
    build: (ctx) => initRepo(ctx, join(ctx.root, 'repo'), [], ['--separate-git-dir', join(ctx.root, 'elsewhere.git')]),
  },
  {
    name: 'GIT_DIR and GIT_WORK_TREE',
    build: (ctx) => {
      const dir = initRepo(ctx, join(ctx.root, 'repo'), [], ['--separate-git-dir', join(ctx.root, 'store.git')]);
      Object.assign(ctx.env, { GIT_DIR: join(ctx.root, 'store.git'), GIT_WORK_TREE: dir });
      return dir;
    },
  },
  {
    name: 'sparse checkout (cone)',
    build: (ctx) => {
      const dir = initRepo(ctx, join(ctx.root, 'repo'));
      ctx.git(dir, 'sparse-checkout', 'set', '--cone', 'skills', '.skillgarden');
      return dir;
    },
  },
  {
    name: 'sparse checkout (non-cone)',
    build: (ctx) => {
      const dir = initRepo(ctx, join(ctx.root, 'repo'));
      ctx.git(dir, 'sparse-checkout', 'set', '--no-cone', '/skills/', '/.skillgarden/', '/README.md');
      return dir;
    },
  },
  {
    name: 'index v4 (feature.manyFiles)',
    build: (ctx) => {
      const dir = initRepo(ctx, join(ctx.root, 'repo'), [['feature.manyFiles', 'true']]);
      ctx.git(dir, 'update-index', '--index-version', '4');
      return dir;
    },
    embeddedRefuses: 'ledger/unsupported-index',
  },
  {
    name: 'core.autocrlf=true',
    build: (ctx) => initRepo(ctx, join(ctx.root, 'repo'), [['core.autocrlf', 'true']]),
    embeddedRefuses: 'ledger/unsupported-repo',
  },
  {
    name: '.gitattributes eol=crlf and a clean/smudge filter',
    build: (ctx) => {
      const dir = join(ctx.root, 'repo');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, '.gitattributes'), '*.md text eol=crlf\n*.secret filter=redact\n');
      return initRepo(ctx, dir, [
        ['filter.redact.clean', "sed -e 's/^token=.*/token=REDACTED/'"],
        ['filter.redact.smudge', 'cat'],
      ]);
    },
    embeddedRefuses: 'ledger/unsupported-repo',
  },
  { name: 'core.fileMode=false', build: (ctx) => initRepo(ctx, join(ctx.root, 'repo'), [['core.fileMode', 'false']]) },
  {
    name: 'packed refs',
    build: (ctx) => {
      const dir = initRepo(ctx, join(ctx.root, 'repo'));
      ctx.git(dir, 'tag', 'v1');
      ctx.git(dir, 'pack-refs', '--all');
      return dir;
    },
  },
  { name: 'core.logAllRefUpdates=false', build: (ctx) => initRepo(ctx, join(ctx.root, 'repo'), [['core.logAllRefUpdates', 'false']]) },
  { name: 'core.logAllRefUpdates=always', build: (ctx) => initRepo(ctx, join(ctx.root, 'repo'), [['core.logAllRefUpdates', 'always']]) },
  {
    name: 'core.fsync=all',
    build: (ctx) =>
      initRepo(ctx, join(ctx.root, 'repo'), [
        ['core.fsync', 'all'],
        ['core.fsyncMethod', 'fsync'],
      ]),
  },
  {
    name: 'signed commits (gpg.format=ssh)',
    signed: true,
    embeddedRefuses: 'ledger/unsupported-repo',
    build: (ctx) => {
      requireTool('ssh-keygen');
      const key = join(ctx.home, 'id_ed25519');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ada@repo.example', '-f', key]);
      const pub = execFileSync('ssh-keygen', ['-y', '-f', key], { encoding: 'utf8' }).trim();
      writeFileSync(join(ctx.home, 'allowed_signers'), `ada@repo.example ${pub}\n`);
      return initRepo(ctx, join(ctx.root, 'repo'), [
        ['gpg.format', 'ssh'],
        ['user.signingKey', key],
        ['gpg.ssh.allowedSignersFile', join(ctx.home, 'allowed_signers')],
        ['commit.gpgSign', 'true'],
      ]);
    },
  },
  {
    name: 'signed commits (gpg.format=openpgp)',
    signed: true,
    embeddedRefuses: 'ledger/unsupported-repo',
    build: (ctx) => {
      requireTool('gpg');
      mkdirSync(ctx.env.GNUPGHOME!, { recursive: true });
      chmodSync(ctx.env.GNUPGHOME!, 0o700);
      execFileSync('gpg', ['--batch', '--passphrase', '', '--quick-gen-key', 'Ada Repo <ada@repo.example>', 'ed25519', 'sign', 'never'], {
        env: { ...process.env, ...ctx.env },
        stdio: 'ignore',
      });
      return initRepo(ctx, join(ctx.root, 'repo'), [
        ['user.signingKey', 'ada@repo.example'],
        ['commit.gpgSign', 'true'],
      ]);
    },
  },
  {
    name: 'signed commits (gpg.format=x509)',
    signed: true,
    embeddedRefuses: 'ledger/unsupported-repo',
    build: (ctx) => {
      requireTool('gpgsm');
      const home = ctx.env.GNUPGHOME!;
      mkdirSync(home, { recursive: true });
      chmodSync(home, 0o700);
      const env = { ...process.env, ...ctx.env };
      // A throwaway self-signed certificate (`Serial:` makes gpgsm sign it itself rather than write a request).
      // gpgsm 2.2 ignores `%no-protection`: the key gets an empty passphrase through loopback pinentry instead.
      writeFileSync(join(home, 'gpg-agent.conf'), 'allow-loopback-pinentry\n');
      writeFileSync(join(home, 'gpgsm.conf'), 'disable-crl-checks\n');
      writeFileSync(
        join(home, 'cert-params'),
        'Key-Type: RSA\nKey-Length: 2048\nKey-Usage: sign\nSerial: random\nName-DN: CN=Ada Repo\nName-Email: ada@repo.example\n',
      );
      const cert = execFileSync(
        'gpgsm',
        ['--batch', '--pinentry-mode', 'loopback', '--passphrase-fd', '0', '--gen-key', join(home, 'cert-params')],
        {
          env,
          input: '\n',
          stdio: ['pipe', 'pipe', 'ignore'],
        },
      );
      execFileSync('gpgsm', ['--batch', '--import'], { env, input: cert, stdio: ['pipe', 'ignore', 'ignore'] });
      const fingerprint = /^fpr:(?:[^:]*:){8}([0-9A-F]{40}):/m.exec(
        execFileSync('gpgsm', ['--list-keys', '--with-colons'], { env, encoding: 'utf8' }),
      )?.[1];
      if (!fingerprint) throw new Error('gpgsm made no certificate');
      // A root certificate counts only once trusted: `S` marks it trusted for S/MIME signatures.
      writeFileSync(join(home, 'trustlist.txt'), `${fingerprint} S relax\n`);
      return initRepo(ctx, join(ctx.root, 'repo'), [
        ['gpg.format', 'x509'],
        ['user.signingKey', fingerprint],
        ['commit.gpgSign', 'true'],
      ]);
    },
  },
];
