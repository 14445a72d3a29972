import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LinkScope } from '../core/config/config.js';
import type { Finding } from '../core/findings.js';
import { resolveScanConfig, type ScanConfig, type ScanConfigInput } from '../core/scan/config.js';
import { buildScanReport, type ScanReport, type ScanResult } from '../core/scan/report.js';
import type { CachedFileScan } from '../core/scan/scan-cache.js';
import type { ProfileName } from '../core/schema/types.js';
import { createDirCache, type DirCache, type PackedListings, type ReadDir } from '../store/dir-cache.js';
import { createFileCache } from '../store/file-cache.js';
import type { DiscoveredLibrary } from '../store/layout/discover-library.js';
import { openScanCache, type PersistedScanCache } from '../store/scan/scan-cache-file.js';
import type { TrackedBlobs } from '../store/scan/tracked-blobs.js';
import { escapedResult, scanSkillFolders } from './scan.js';
import { resolveValidateTargets, validateReport, validateTargets, type ValidateReport, type ValidateTarget } from './validate.js';
import { openValidateCache, type CachedValidation, type RecordingValidateCache } from './validate-cache.js';

export interface ValidatePassOptions {
  /** The repository: paths resolve against it, findings are reported relative to it, the caches live in its git folder. */
  repo: string;
  paths: readonly string[];
  skillsDir?: string | readonly string[];
  /** The library, already discovered (with no paths). */
  library?: DiscoveredLibrary;
  profile: ProfileName;
  links?: LinkScope;
  /** The `scan:` config; `false`: no security scan. */
  scan: ScanConfigInput | false;
  /** Use (and update) the caches in `.git/skillgarden/`. */
  cache: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Folder listings discovery already made (this thread's, shared with its chunks, and handed to the workers). */
  readDir?: DirCache;
  /**
   * Threads: undefined, the machine's cores for a library large enough to
   * repay starting them (`minSkillsPerThread` each) when the cache does not
   * already know most of it; a number, that many whatever the size (1 keeps
   * the pass on this thread).
   */
  threads?: number;
  /** The worker's module (tests running from source point it at the built one). */
  workerFile?: string;
  /** Leave every chunk to the workers (tests: so the report is surely theirs); this thread does only what they could not. */
  workersOnly?: boolean;
}

export interface ValidatePass {
  report: ValidateReport;
  /** The security scan's report, when it ran. */
  scan: ScanReport | undefined;
  /** Worker threads whose chunks made it into the report. */
  workers: number;
}

/** Below this many skills a thread costs more to start (it loads the code again) than it saves. */
export const minSkillsPerThread = 1_000;

/** Skills per unit of work: each thread takes the next unclaimed chunk, so a thread that starts late simply takes fewer. */
const chunkSize = 64;

/** What a thread is given: plain data (it crosses to a worker thread). */
export interface ShardJob {
  repo: string;
  targets: ValidateTarget[];
  explicit: boolean;
  profile: ProfileName;
  links: LinkScope | undefined;
  scan: ScanConfig | undefined;
  cache: boolean;
  /** The skill folders' listings discovery made: a worker does not list them again. */
  listings?: PackedListings;
}

/** The work of one chunk, kept apart so the results are joined in chunk order (the order one thread would give). */
export interface ChunkResult {
  index: number;
  findings: Finding[];
  scan: ScanResult[];
}

/** What a thread hands back: its chunks, and what it added to the two caches. */
export interface ShardResult {
  chunks: ChunkResult[];
  validatePuts: [string, CachedValidation][];
  scanPuts: [string, string, CachedFileScan][];
}

/** The caches one thread uses: each thread opens its own view (reading a file is cheaper than copying one across). */
interface ShardCaches {
  validate: { cache: RecordingValidateCache; tracked: TrackedBlobs | undefined; save(): void } | undefined;
  scan: (PersistedScanCache & { puts: [string, string, CachedFileScan][] }) | undefined;
}

/**
 * `validate`'s pass: schema, rules and evals, then the security scan, per
 * skill, with the caches. A large library is spread over the machine's cores:
 * worker threads and this one take chunks of skills from a shared counter,
 * and the results are joined in chunk order, so the report is the one a
 * single thread gives (a test compares them).
 */
export async function runValidatePass(options: ValidatePassOptions): Promise<ValidatePass> {
  const readDir = options.readDir ?? createDirCache();
  const resolved = resolveValidateTargets(
    { cwd: options.repo, paths: options.paths, skillsDir: options.skillsDir, library: options.library },
    readDir,
  );
  const { targets, explicit } = resolved;
  const scanConfig = options.scan === false ? undefined : resolveScanConfig(options.scan);
  const job: ShardJob = {
    repo: options.repo,
    targets,
    explicit,
    profile: options.profile,
    links: options.links,
    scan: scanConfig,
    cache: options.cache,
  };
  const chunks = Math.ceil(targets.length / chunkSize);
  const caches = await openShardCaches(job);
  // A warm run (the cache knows most skills) is mostly reading the library and two cache files, which a worker would
  // only do again: it stays on this thread.
  const warm = (caches.validate?.cache.known ?? 0) >= targets.length / 2;
  const auto = warm ? 1 : Math.min(availableParallelism(), Math.floor(targets.length / minSkillsPerThread));
  const threads = Math.min(options.threads ?? auto, 8, chunks);
  // [next chunk, skills done, then per worker: chunks it claimed]
  const counters = new Int32Array(new SharedArrayBuffer(4 * (2 + threads)));
  const workerFile = options.workerFile ?? defaultWorkerFile;
  const workerJob = threads > 1 ? { ...job, listings: readDir.pack(targets.map((t) => t.dir)) } : job;
  const workers = Array.from({ length: Math.max(0, threads - 1) }, (_, slot) =>
    startWorker(workerFile, workerJob, counters, 2 + slot),
  ).filter((w) => w !== undefined);
  const onChunk = () => options.onProgress?.(Atomics.load(counters, 1), targets.length);
  const own: ShardResult =
    options.workersOnly && workers.length > 0
      ? { chunks: [], validatePuts: [], scanPuts: [] }
      : await runChunks(job, counters, caches, { readDir, onChunk });
  const byIndex = new Map(own.chunks.map((c) => [c.index, c]));
  const results = await Promise.all(workers.map((w) => w.result(options.workersOnly === true)));
  for (const result of results) {
    for (const chunk of result?.chunks ?? []) byIndex.set(chunk.index, chunk);
    for (const [key, value] of result?.validatePuts ?? []) caches.validate?.cache.put(key, value);
    for (const [blob, file, found] of result?.scanPuts ?? []) caches.scan?.cache.put(blob, file, found);
  }
  // A worker that failed: what it had claimed is done here.
  const missing = Array.from({ length: chunks }, (_, i) => i).filter((i) => !byIndex.has(i));
  for (const index of missing) byIndex.set(index, await runChunk(job, index, caches, readDir));
  caches.validate?.save();
  caches.scan?.save();
  options.onProgress?.(targets.length, targets.length);
  const ordered = Array.from({ length: chunks }, (_, i) => byIndex.get(i)!);
  const report = validateReport(options.profile, targets.length, [...resolved.findings, ...ordered.flatMap((c) => c.findings)]);
  const escaped = resolved.library?.escaped ?? [];
  const scan = scanConfig ? buildScanReport([...ordered.flatMap((c) => c.scan), ...escaped.map(escapedResult)]) : undefined;
  return { report, scan, workers: results.filter((r) => r !== undefined && r.chunks.length > 0).length };
}

/** Opens this thread's views of validate's and the scan's caches (one read of git's index for both). */
export async function openShardCaches(job: ShardJob): Promise<ShardCaches> {
  if (!job.cache) return { validate: undefined, scan: undefined };
  const scan = job.scan ? await openScanCache(job.repo, job.scan) : undefined;
  const validate = await openValidateCache(job.repo, scan ? { tracked: scan.tracked } : {});
  return { validate, scan: scan ? recordPuts(scan) : undefined };
}

/** The scan cache, remembering what was put in it (a worker hands that back to be saved once). */
function recordPuts(scan: PersistedScanCache): PersistedScanCache & { puts: [string, string, CachedFileScan][] } {
  const puts: [string, string, CachedFileScan][] = [];
  const cache = scan.cache;
  const put = cache.put.bind(cache);
  cache.put = (blob, file, findings) => {
    put(blob, file, findings);
    puts.push([blob, file, findings]);
  };
  return { ...scan, puts };
}

/**
 * Takes chunks from the shared counter until none is left. `counters[0]`:
 * the next chunk; `counters[1]`: skills done; `counters[slot]`: chunks this
 * worker claimed.
 */
export async function runChunks(
  job: ShardJob,
  counters: Int32Array,
  caches: ShardCaches,
  options: { readDir?: ReadDir; slot?: number; onChunk?: () => void } = {},
): Promise<ShardResult> {
  const readDir = options.readDir ?? createDirCache();
  const chunks: ChunkResult[] = [];
  const count = Math.ceil(job.targets.length / chunkSize);
  for (let index = Atomics.add(counters, 0, 1); index < count; index = Atomics.add(counters, 0, 1)) {
    if (options.slot !== undefined) Atomics.add(counters, options.slot, 1);
    const chunk = await runChunk(job, index, caches, readDir);
    chunks.push(chunk);
    Atomics.add(counters, 1, Math.min(chunkSize, job.targets.length - index * chunkSize));
    options.onChunk?.();
  }
  return { chunks, validatePuts: caches.validate?.cache.puts ?? [], scanPuts: caches.scan?.puts ?? [] };
}

async function runChunk(job: ShardJob, index: number, caches: ShardCaches, readDir: ReadDir): Promise<ChunkResult> {
  const targets = job.targets.slice(index * chunkSize, (index + 1) * chunkSize);
  // SKILL.md is read once: validate keeps it for the scan of the same chunk.
  const files = job.scan ? createFileCache() : undefined;
  const validate = caches.validate;
  const findings = validateTargets(targets, job.explicit, {
    cwd: job.repo,
    profile: job.profile,
    ...(job.links ? { links: job.links } : {}),
    readDir,
    ...(files ? { files } : {}),
    ...(validate ? { cache: validate.cache } : {}),
    ...(validate?.tracked ? { tracked: validate.tracked } : {}),
  });
  const scan = job.scan
    ? await scanSkillFolders(
        targets.map((t) => t.dir),
        { repo: job.repo, config: job.scan, readDir, ...(files ? { files } : {}), ...(caches.scan ? { cache: caches.scan } : {}) },
      )
    : [];
  return { index, findings, scan };
}

interface StartedWorker {
  /**
   * Its result; undefined when it failed (its chunks are then done again) or
   * was stopped having claimed none (unless `wait`).
   */
  result(wait: boolean): Promise<ShardResult | undefined>;
}

/** The worker's code beside this module's (lib/services/, or the CLI bundle's folder); absent when running from source. */
const defaultWorkerFile = fileURLToPath(new URL('./validate-worker.js', import.meta.url));

function startWorker(file: string, job: ShardJob, counters: Int32Array, slot: number): StartedWorker | undefined {
  if (!existsSync(file)) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: { job, counters, slot } });
  } catch {
    return undefined;
  }
  const done = new Promise<ShardResult | undefined>((resolve) => {
    worker.once('message', (result: ShardResult) => resolve(result));
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return {
    result(wait) {
      // Called once every chunk is claimed. A worker that claimed none (it was still starting) is not waited for; had
      // it claimed one in the instant before this check, that chunk is simply done again here.
      if (!wait && Atomics.load(counters, slot) === 0) {
        void worker.terminate();
        return Promise.resolve(undefined);
      }
      return done;
    },
  };
}
