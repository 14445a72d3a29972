import { randomUUID } from 'node:crypto';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ProfileName } from '../core/schema/types.js';
import { requireConfig } from '../services/config-file.js';
import { EvidenceReader } from '../services/evidence/run-evidence.js';
import { readPrimaryRoot } from '../services/library.js';
import { readVendoredVersions } from '../services/publish/skill-version.js';
import type { Ledger } from '../services/ledger.js';
import type { ManageContext } from '../services/manage/index.js';
import { SkillRegistry } from '../registry/skill-registry.js';
import type { UsageStore } from '../registry/usage-store.js';
import type { InlineShellOptions } from '../registry/inline-shell.js';
import { guardJsonRpcInput } from './jsonrpc-guard.js';
import { readPackageVersion } from '../version.js';
import { createSkillServer } from './skill-server.js';

export interface ServeOptions {
  repoDir: string;
  /** The `skills_dir` setting (a folder, a glob or a list); default: detected from the layout. */
  skillsDir?: string | readonly string[];
  /** The profile every write is validated under (the repository's configured one). */
  profile?: ProfileName;
  openLedger: () => Promise<Ledger>;
  usage?: UsageStore;
  sessionId?: string;
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  onError?: (error: unknown) => void;
  /** Run `` !`cmd` `` in skill bodies (off by default). */
  inlineShell?: InlineShellOptions;
}

/** Serves the library over stdio until the client hangs up; hot-reloads it meanwhile. */
export async function serveStdio(options: ServeOptions): Promise<void> {
  const registry = await SkillRegistry.open({
    repoDir: options.repoDir,
    ...(options.skillsDir === undefined ? {} : { skillsDir: options.skillsDir }),
    ...(options.usage ? { usage: options.usage } : {}),
    ...(options.inlineShell ? { inlineShell: options.inlineShell } : {}),
  });
  let ledger: Promise<Ledger> | undefined;
  const manageContext = async (): Promise<ManageContext> => {
    ledger ??= options.openLedger();
    return {
      repoDir: options.repoDir,
      ledger: await ledger,
      skillsDir: readPrimaryRoot(options.repoDir, options.skillsDir),
      roots: options.skillsDir ?? null,
      profile: options.profile ?? 'portable',
      actor: 'agent',
      source: 'foreground',
    };
  };
  // Per call: the `transcripts` setting (as curate and detect read it) and the sessions may change while serving;
  // a transcript file is read again only when its size or time changed.
  const evidenceReader = new EvidenceReader();
  const readEvidence = async () => {
    const { transcripts } = requireConfig(options.repoDir, { needs: ['transcripts'] });
    if (transcripts.length === 0) return undefined;
    const skillsDir = typeof options.skillsDir === 'string' ? { skillsDir: options.skillsDir } : {};
    return evidenceReader.run({ repoDir: options.repoDir, transcripts, ...skillsDir });
  };
  // A broken skills-lock.json must not hide the library: the skills are served without versions, the error told.
  const skillVersions = (skills: readonly { name: string; dir: string }[]) =>
    readVendoredVersions({ repoDir: options.repoDir, ledger: () => (ledger ??= options.openLedger()), skills }).catch((error: unknown) => {
      options.onError?.(error);
      return new Map<string, string>();
    });
  const { server, dispose } = createSkillServer(
    { registry, manageContext, sessionId: options.sessionId ?? randomUUID(), now: () => new Date(), readEvidence, skillVersions },
    { version: readPackageVersion() },
  );
  const watcher = registry.watch({ ...(options.onError ? { onError: options.onError } : {}) });
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  // Malformed, invalid and over-long lines are answered here; only JSON-RPC messages reach the SDK's transport.
  const guarded = guardJsonRpcInput(input, output);
  const transport = new StdioServerTransport(guarded.stream as never, output as never);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    guarded.stream.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  watcher.close();
  dispose();
  await server.close().catch(() => undefined);
  if (ledger) await (await ledger).close();
}
