import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LinkScope } from '../core/config/config.js';
import type { Finding } from '../core/findings.js';
import { resolveScanConfig, type ScanConfig, type ScanConfigInput } from '../core/scan/config.js';
import { buildScanReport, type ScanReport, type ScanResult } from '../core/scan/report.js';
import type { CachedFileScan } from '../core/scan/scan-cache.js';
import type { ProfileName } from '../core/schema/types.js';
import { createDirCache, type DirCache, type KeptListing, type PackedListings, type ReadDir } from '../store/dir-cache.js';
import { createFileCache } from '../store/file-cache.js';
import {
  defaultMaxFolders,
  discoverDeepDeferred,
  discoverDeferred,
  sortSkillLocations,
  tooManyFolders,
  type DeferredFolder,
  type SkillLocation,
} from '../store/discover.js';
import { skillFileName } from '../core/layout.js';
import type { StampedPath } from '../store/folder-stamp.js';
import type { DiscoveredLibrary } from '../store/layout/discover-library.js';
import { openScanCache, type PersistedScanCache } from '../store/scan/scan-cache-file.js';
import type { TrackedBlobs } from '../store/scan/tracked-blobs.js';
import { escapedResult, scanSkillFolders } from './scan.js';
import {
  explicitDepth,
  explicitTarget,
  resolveValidateTargets,
  validateReport,
  validateTargets,
  type ValidateReport,
  type ValidateTarget,
} from './validate.js';
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
  /**
   * Folder listings discovery already made (this thread's, shared with its
   * chunks, and handed to the workers). The workers' fresh listings are
   * added to its `fresh()`; `keptListings`: it was made with the kept
   * listings, so the workers open them too.
   */
  readDir?: DirCache;
  keptListings?: boolean;
  /**
   * Each worker stamps the folders it listed and the files in them, as the
   * memo keeps them (validate-memo.ts), and notes each path outside a skill
   * whose existence its checks looked at: this thread does both itself (its
   * `readDir` and `onProbe`), a worker hands them back (`threadStamps`).
   * The run's start: a path changed since shortly before is not stamped.
   */
  stampsSince?: number;
  /**
   * This thread's stamps (of what its `readDir` listed), taken once its own
   * chunks are done, while the workers finish theirs (again at the end if it
   * had to redo a failed worker's chunks): `ownStamps` of the result.
   */
  stampOwn?: () => StampedPath[] | undefined;
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
  /** Workers started before discovery (`startWorkersEarly`, from the same options): used when the pass wants threads, else stopped. */
  early?: EarlyWorkers;
  /** This thread's checks tell it each path outside a skill whose existence they looked at (validate.ts `onProbe`). */
  onProbe?: (path: string, existed: boolean) => void;
}

export interface ValidatePass {
  report: ValidateReport;
  /** The security scan's report, when it ran. */
  scan: ScanReport | undefined;
  /** Worker threads whose chunks made it into the report. */
  workers: number;
  /** Cache entries this pass computed, its workers' included (0: the caches answered every skill and file). */
  computed: number;
  /** The caches knew nothing (no entry of this rule set): a first run. */
  firstRun: boolean;
  /**
   * With `stampsSince`: what the workers stamped and probed (empty when none
   * ran); null when one could not stamp (a link, a path changed during the run).
   */
  threadStamps?: ThreadStamps | null;
  /** What `stampOwn` gave (undefined without it, or when this thread could not stamp). */
  ownStamps?: StampedPath[] | undefined;
}

/** What the worker threads of a pass stamped and probed (see `stampsSince`). */
export interface ThreadStamps {
  paths: StampedPath[];
  probes: [string, boolean][];
}

/** Below this many skills a thread costs more to start (it loads the code again) than it saves. */
export const minSkillsPerThread = 1_000;

/**
 * Workers worth starting before discovery for a library whose git index
 * holds `trackedFiles` entries: a guess (two files a skill), so a library
 * that turns out smaller only costs a worker's start on another core.
 */
export function earlyWorkerCount(trackedFiles: number): number {
  return Math.max(0, Math.min(availableParallelism(), Math.floor(trackedFiles / (2 * minSkillsPerThread))) - 1);
}

/** Skills per unit of work: each thread takes the next unclaimed chunk, so a thread that starts late simply takes fewer. */
const chunkSize = 64;

/** What a thread needs before it is given skills (a worker started early opens its caches with it while discovery runs). */
export interface ShardSetup {
  repo: string;
  profile: ProfileName;
  links: LinkScope | undefined;
  scan: ScanConfig | undefined;
  cache: boolean;
  /** Folder listings kept across runs are in use (the caller's `readDir` has them): a worker opens them too. */
  keptListings?: boolean;
  /** See `ValidatePassOptions.stampsSince`. */
  stampsSince?: number;
}

/** The skills a thread takes its chunks from. */
export interface ShardTargets {
  targets: ValidateTarget[];
  explicit: boolean;
  /** The skill folders' listings discovery made: a worker does not list them again. */
  listings?: PackedListings;
  /** Instead of `targets`: the folders discovery left to the threads (see `deferDiscovery`); each chunk finishes discovering its own. */
  deferred?: DeferredSkills;
}

/**
 * `validate PATH` over a folder of skills on more than one thread: this
 * thread finds the folders holding a SKILL.md by one lstat each, and each
 * chunk lists its folders (as its validation does anyway), decides by that
 * listing, exactly as `discoverSkills` deep does, and searches below for
 * nested skills. The skills found are sorted as discovery sorts them before
 * the report is built, so it is the one the plain discovery gives (a test
 * compares them).
 */
export interface DeferredSkills {
  root: string;
  folders: DeferredFolder[];
  /** Skills this thread's discovery already settled (an lstat that could not tell): the last chunk. */
  found: SkillLocation[];
  /** Folders this thread's discovery looked at, against the bound (each chunk adds its own). */
  seen: number;
}

/** What a thread is given: plain data (it crosses to a worker thread). */
export type ShardJob = ShardSetup & ShardTargets;

/** Most threads a pass uses. */
const maxThreads = 8;

/** The work of one chunk, kept apart so the results are joined in chunk order (the order one thread would give). */
export interface ChunkResult {
  index: number;
  findings: Finding[];
  scan: ScanResult[];
  /** A deferred chunk's (see `DeferredSkills`): each skill it found, with its own results, to be sorted among the others. */
  skills?: { relativeDir: string; findings: Finding[]; scan: ScanResult | undefined }[];
  /** Folders its discovery looked at, against the bound. */
  seen?: number;
}

/**
 * What a worker posts as it goes: each chunk with what it added to the two
 * caches meanwhile (so this thread takes them in between its own chunks, not
 * all at the end), then its fresh listings.
 */
export type WorkerMessage =
  | { chunk: ChunkResult; validatePuts: [string, CachedValidation][]; scanPuts: [string, string, CachedFileScan][] }
  | ({ listings: KeptListing[] } & WorkerStamps);

/** A worker's stamps and probes when the pass asked for them (`stampsSince`): `stamps` null when it could not stamp. */
export interface WorkerStamps {
  stamps?: StampedPath[] | null;
  probes?: [string, boolean][];
}

/** What a thread hands back: its chunks, and what it added to the two caches. */
export interface ShardResult extends WorkerStamps {
  chunks: ChunkResult[];
  validatePuts: [string, CachedValidation][];
  scanPuts: [string, string, CachedFileScan][];
  /** Folders it listed that a later run may trust (dir-cache.ts). */
  listings: KeptListing[];
}

/** The caches one thread uses: each thread opens its own view (reading a file is cheaper than copying one across). */
export interface ShardCaches {
  validate: { cache: RecordingValidateCache; tracked: TrackedBlobs | undefined; save(): void } | undefined;
  scan: (PersistedScanCache & { puts: [string, string, CachedFileScan][] }) | undefined;
  /** Nothing cached (a first run, or no caches): the scan will read every file, so validate reads them as it lists them. */
  readAhead: boolean;
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
  const setup = options.early?.setup ?? shardSetup(options);
  // Workers started early are still loading while this thread's discovery runs, which is short when deferred: this
  // thread opens its caches (git's index parsed, the cache files read) first, so that its chunks start right after.
  const opened = deferrable(options) ? await openShardCaches(setup) : undefined;
  const deferred = deferDiscovery(options, readDir);
  const resolved = deferred
    ? { targets: [], findings: [], explicit: true, library: undefined }
    : resolveValidateTargets({ cwd: options.repo, paths: options.paths, skillsDir: options.skillsDir, library: options.library }, readDir);
  const { targets, explicit } = resolved;
  const scanConfig = setup.scan;
  const job: ShardJob = { ...setup, targets, explicit, ...(deferred ? { deferred } : {}) };
  // Deferred: a folder is most likely one skill.
  const size = deferred ? deferred.folders.length + deferred.found.length : targets.length;
  const chunks = chunkCount(job);
  const bySize = Math.min(availableParallelism(), Math.floor(size / minSkillsPerThread));
  const early = options.early;
  // Early workers (a cold first run, as the command guessed) are given their skills before this thread opens its caches.
  const earlyThreads = early ? Math.min(options.threads ?? bySize, maxThreads, chunks) : 0;
  const earlyWorkers = early ? handOut(early.workers, earlyThreads - 1, { targets, explicit, readDir, deferred }) : [];
  const caches = opened ?? (await openShardCaches(job));
  // A warm run (the cache knows most skills) is mostly reading the library and two cache files, which a worker would
  // only do again: it stays on this thread.
  const warm = (caches.validate?.cache.known ?? 0) >= size / 2;
  const threads = early ? earlyThreads : Math.min(options.threads ?? (warm ? 1 : bySize), maxThreads, chunks);
  const counters = early?.counters ?? newCounters();
  const workerFile = options.workerFile ?? defaultWorkerFile;
  const workers = earlyWorkers;
  const given = threads > 1 && !early ? shardTargets({ targets, explicit, readDir, deferred }) : undefined;
  for (let slot = 2; given && workers.length < threads - 1; slot++) {
    const worker = startWorker(workerFile, setup, counters, slot, given);
    if (!worker) break;
    workers.push(worker);
  }
  const onChunk = () => options.onProgress?.(Atomics.load(counters, 1), size);
  const own: ShardResult =
    options.workersOnly && workers.length > 0
      ? { chunks: [], validatePuts: [], scanPuts: [], listings: [] }
      : await runChunks(job, counters, caches, {
          readDir,
          onChunk,
          ...(workers.length > 0 ? { yieldEach: true } : {}),
          ...(options.onProbe ? { onProbe: options.onProbe } : {}),
        });
  const byIndex = new Map(own.chunks.map((c) => [c.index, c]));
  // Stamped only for a run that will keep its report (see `worthStamping`): a run after an edit does not pay for it.
  const stampedEarly = options.stampOwn && worthStamping(caches) ? options.stampOwn() : undefined;
  const results = await Promise.all(workers.map((w) => w.result(options.workersOnly === true)));
  for (const result of results) {
    for (const chunk of result?.chunks ?? []) byIndex.set(chunk.index, chunk);
    for (const [key, value] of result?.validatePuts ?? []) caches.validate?.cache.put(key, value);
    for (const [blob, file, found] of result?.scanPuts ?? []) caches.scan?.cache.put(blob, file, found);
    readDir.absorb(result?.listings ?? []);
  }
  // A worker that failed: what it had claimed is done here.
  const missing = Array.from({ length: chunks }, (_, i) => i).filter((i) => !byIndex.has(i));
  for (const index of missing) byIndex.set(index, await runChunk(job, index, caches, readDir, options.onProbe));
  const ownStamps = missing.length === 0 ? stampedEarly : options.stampOwn && worthStamping(caches) ? options.stampOwn() : undefined;
  caches.validate?.save();
  caches.scan?.save();
  const ordered = Array.from({ length: chunks }, (_, i) => byIndex.get(i)!);
  const computed = misses(caches);
  const used = results.filter((r) => r !== undefined && r.chunks.length > 0).length;
  const counts = {
    workers: used,
    computed,
    firstRun: firstRun(caches),
    ...(setup.stampsSince === undefined ? {} : { threadStamps: threadStamps(results) }),
    ...(options.stampOwn ? { ownStamps } : {}),
  };
  if (deferred) {
    const { report, scan } = deferredReport(options.profile, deferred, ordered, scanConfig !== undefined);
    options.onProgress?.(report.skills, report.skills);
    return { report, scan, ...counts };
  }
  options.onProgress?.(targets.length, targets.length);
  const report = validateReport(options.profile, targets.length, [...resolved.findings, ...ordered.flatMap((c) => c.findings)]);
  const escaped = resolved.library?.escaped ?? [];
  const scan = scanConfig ? buildScanReport([...ordered.flatMap((c) => c.scan), ...escaped.map(escapedResult)]) : undefined;
  return { report, scan, ...counts };
}

/**
 * The workers' stamps and probes, joined; null when one that did some of the
 * work could not stamp. (A worker that failed or claimed nothing listed
 * nothing the report holds: what it claimed was done on this thread.)
 */
function threadStamps(results: readonly (ShardResult | undefined)[]): ThreadStamps | null {
  const joined: ThreadStamps = { paths: [], probes: [] };
  for (const result of results) {
    if (result === undefined || result.chunks.length === 0) continue;
    if (!result.stamps) return null;
    for (const path of result.stamps) joined.paths.push(path);
    for (const probe of result.probes ?? []) joined.probes.push(probe);
  }
  return joined;
}

/**
 * Discovery by stat (a first run on several threads) judged these folders
 * skills without listing them, and the pass lists only the skills it checks:
 * listed here, so that the memo stamps them as a one-thread run does (a
 * SKILL.md removed from a shadowed skill changes the report).
 */
export function listUncheckedSkills(library: DiscoveredLibrary, readDir: ReadDir): void {
  for (const skill of [...library.shadowed, ...library.escaped.map((e) => e.location)]) {
    try {
      readDir(skill.dir);
    } catch {
      // Gone since: the listing of its parent, stamped, says so.
    }
  }
}

/** The caches knew nothing (no entry of this rule set): a first run. */
const firstRun = (caches: ShardCaches): boolean => (caches.validate?.cache.known ?? 0) === 0;

/** Cache entries this thread's caches computed so far (a pass's, once the workers' are added). */
const misses = (caches: ShardCaches): number => (caches.validate?.cache.misses ?? 0) + (caches.scan?.cache.misses ?? 0);

/** Whether validate's memo will keep this run (a first run, or one its caches answered whole, so far): stamps are worth taking. */
export function worthStamping(caches: ShardCaches): boolean {
  return firstRun(caches) || misses(caches) === 0;
}

/** What a pass's skills are, before they are handed out. */
interface PassSkills {
  targets: ValidateTarget[];
  explicit: boolean;
  readDir: DirCache;
  deferred: DeferredSkills | undefined;
}

/** The skills of a pass as a worker is given them, with the listings discovery made of their folders. */
function shardTargets({ targets, explicit, readDir, deferred }: PassSkills): ShardTargets {
  const listings = readDir.pack(targets.map((t) => t.dir));
  return deferred ? { targets, explicit, listings, deferred } : { targets, explicit, listings };
}

/**
 * The deferred discovery (see `DeferredSkills`) of a pass over one folder of
 * skills that will run on more than one thread (workers started early, or
 * asked for); undefined for any other pass, which discovers as it always did.
 */
function deferDiscovery(options: ValidatePassOptions, readDir: ReadDir): DeferredSkills | undefined {
  if (!deferrable(options)) return undefined;
  const root = resolve(options.repo, options.paths[0]!);
  // Only what resolveValidateTargets searches deep: a folder that is not itself a skill (the rest it answers, or rejects).
  if (!existsSync(root) || statSync(root).isFile() || existsSync(join(root, skillFileName))) return undefined;
  const { found, deferred, seen } = discoverDeepDeferred(root, { maxDepth: explicitDepth, maxFolders: defaultMaxFolders, readDir });
  return { root, folders: deferred, found, seen };
}

/** A pass over one path on more than one thread: its discovery may be deferred (when the path is a folder of skills). */
function deferrable(options: ValidatePassOptions): boolean {
  return !options.library && options.paths.length === 1 && (options.early !== undefined || (options.threads ?? 1) > 1);
}

/** Chunks of a pass: of its targets, or of its deferred folders and then the skills discovery settled itself. */
function chunkCount(job: ShardTargets): number {
  const deferred = job.deferred;
  if (!deferred) return Math.ceil(job.targets.length / chunkSize);
  return Math.ceil(deferred.folders.length / chunkSize) + (deferred.found.length > 0 ? 1 : 0);
}

/** What a chunk counts as done for the progress line. */
function chunkLength(job: ShardTargets, index: number): number {
  const deferred = job.deferred;
  if (!deferred) return Math.min(chunkSize, job.targets.length - index * chunkSize);
  const folderChunks = Math.ceil(deferred.folders.length / chunkSize);
  return index < folderChunks ? Math.min(chunkSize, deferred.folders.length - index * chunkSize) : deferred.found.length;
}

/** The report of a deferred pass: its skills sorted as discovery sorts them, their findings and scans in that order. */
function deferredReport(
  profile: ProfileName,
  deferred: DeferredSkills,
  ordered: readonly ChunkResult[],
  scanned: boolean,
): { report: ValidateReport; scan: ScanReport | undefined } {
  // Counted as discoverDeep counts: every folder looked at, the first part's and each chunk's.
  const total = ordered.reduce((sum, c) => sum + (c.seen ?? 0), deferred.seen);
  if (total > defaultMaxFolders) throw tooManyFolders(deferred.root, defaultMaxFolders);
  const skills = sortSkillLocations(ordered.flatMap((c) => c.skills ?? []));
  const report = validateReport(
    profile,
    skills.length,
    skills.flatMap((s) => s.findings),
  );
  return { report, scan: scanned ? buildScanReport(skills.map((s) => s.scan!)) : undefined };
}

/** The first `wanted` early workers are given the skills; the rest are stopped. */
function handOut(started: readonly StartedWorker[], wanted: number, skills: PassSkills): StartedWorker[] {
  const keep = started.slice(0, Math.max(0, wanted));
  started.slice(keep.length).forEach((w) => w.stop());
  if (keep.length > 0) {
    const given = shardTargets(skills);
    keep.forEach((w) => w.give(given));
  }
  return keep;
}

/** What every thread of a pass with these options is set up with. */
function shardSetup(
  options: Pick<ValidatePassOptions, 'repo' | 'profile' | 'links' | 'scan' | 'cache' | 'keptListings' | 'stampsSince'>,
): ShardSetup {
  return {
    repo: options.repo,
    profile: options.profile,
    links: options.links,
    scan: options.scan === false ? undefined : resolveScanConfig(options.scan),
    cache: options.cache,
    ...(options.keptListings ? { keptListings: true } : {}),
    ...(options.stampsSince === undefined ? {} : { stampsSince: options.stampsSince }),
  };
}

/** [next chunk, skills done, then per worker: chunks it claimed] */
function newCounters(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * (2 + maxThreads)));
}

/** Worker threads started before the pass knows its skills, so that their start-up overlaps discovery. */
export interface EarlyWorkers {
  setup: ShardSetup;
  counters: Int32Array;
  workers: StartedWorker[];
}

/**
 * Starts `count` workers for a pass with these options before discovery
 * runs (the command guesses a large cold library; the pass then gives them
 * their skills, or stops those it does not want). Each opens its caches while
 * it waits.
 */
export function startWorkersEarly(
  options: Pick<ValidatePassOptions, 'repo' | 'profile' | 'links' | 'scan' | 'cache' | 'keptListings' | 'stampsSince' | 'workerFile'>,
  count: number,
): EarlyWorkers {
  const setup = shardSetup(options);
  const counters = newCounters();
  const file = options.workerFile ?? defaultWorkerFile;
  const workers: StartedWorker[] = [];
  for (let i = 0; i < Math.min(count, maxThreads - 1); i++) {
    const worker = startWorker(file, setup, counters, 2 + i, undefined);
    if (!worker) break;
    workers.push(worker);
  }
  return { setup, counters, workers };
}

/** Opens this thread's views of validate's and the scan's caches (one read of git's index for both). */
export async function openShardCaches(job: Pick<ShardSetup, 'repo' | 'cache' | 'scan'>): Promise<ShardCaches> {
  if (!job.cache) return { validate: undefined, scan: undefined, readAhead: true };
  const scan = job.scan ? await openScanCache(job.repo, job.scan) : undefined;
  const validate = await openValidateCache(job.repo, scan ? { tracked: scan.tracked } : {});
  return { validate, scan: scan ? recordPuts(scan) : undefined, readAhead: (validate?.cache.known ?? 0) === 0 };
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
  options: {
    readDir?: DirCache;
    slot?: number;
    onChunk?: () => void;
    onProbe?: (path: string, existed: boolean) => void;
    /** A worker's: each chunk handed on as it is done, with the cache entries added since the last (see `WorkerMessage`). */
    post?: (message: WorkerMessage) => void;
    /** Let the event loop run after each chunk: this thread takes in the workers' chunks while it works. */
    yieldEach?: boolean;
    /** A worker's: what its last message adds to its listings (its stamps, once every chunk is done). */
    lastWords?: () => WorkerStamps;
  } = {},
): Promise<ShardResult> {
  const readDir = options.readDir ?? createDirCache();
  const chunks: ChunkResult[] = [];
  const count = chunkCount(job);
  const validatePuts = caches.validate?.cache.puts ?? [];
  const scanPuts = caches.scan?.puts ?? [];
  let posted = { validate: 0, scan: 0 };
  for (let index = Atomics.add(counters, 0, 1); index < count; index = Atomics.add(counters, 0, 1)) {
    if (options.slot !== undefined) Atomics.add(counters, options.slot, 1);
    const chunk = await runChunk(job, index, caches, readDir, options.onProbe);
    Atomics.add(counters, 1, chunkLength(job, index));
    if (options.post) {
      options.post({ chunk, validatePuts: validatePuts.slice(posted.validate), scanPuts: scanPuts.slice(posted.scan) });
      posted = { validate: validatePuts.length, scan: scanPuts.length };
    } else chunks.push(chunk);
    options.onChunk?.();
    if (options.yieldEach) await new Promise((resolve) => setImmediate(resolve));
  }
  // This thread's own fresh listings are its caller's to save; a worker's go back with its result.
  const listings = options.slot !== undefined ? (options.readDir?.fresh() ?? []) : [];
  if (options.post) options.post({ listings, ...options.lastWords?.() });
  return options.post ? { chunks, validatePuts: [], scanPuts: [], listings } : { chunks, validatePuts, scanPuts, listings };
}

async function runChunk(
  job: ShardJob,
  index: number,
  caches: ShardCaches,
  readDir: ReadDir,
  onProbe?: (path: string, existed: boolean) => void,
): Promise<ChunkResult> {
  if (job.deferred) return runDeferredChunk(job, job.deferred, index, caches, readDir, onProbe);
  const targets = job.targets.slice(index * chunkSize, (index + 1) * chunkSize);
  const { findings, scan } = await checkTargets(job, targets, caches, readDir, onProbe);
  return { index, findings: findings.flat(), scan };
}

/** A chunk of deferred folders: discovery finished on each (whether it is a skill, and the skills below), then what it found checked. */
async function runDeferredChunk(
  job: ShardJob,
  deferred: DeferredSkills,
  index: number,
  caches: ShardCaches,
  readDir: ReadDir,
  onProbe?: (path: string, existed: boolean) => void,
): Promise<ChunkResult> {
  const folderChunks = Math.ceil(deferred.folders.length / chunkSize);
  const found: SkillLocation[] = index < folderChunks ? [] : deferred.found;
  let seen = 0;
  for (const folder of index < folderChunks ? deferred.folders.slice(index * chunkSize, (index + 1) * chunkSize) : []) {
    const more = discoverDeferred(deferred.root, folder, { maxDepth: explicitDepth, maxFolders: defaultMaxFolders, readDir });
    found.push(...more.found);
    seen += more.seen;
  }
  const { findings, scan } = await checkTargets(
    job,
    found.map((skill) => explicitTarget(deferred.root, skill)),
    caches,
    readDir,
    onProbe,
  );
  const skills = found.map((skill, i) => ({ relativeDir: skill.relativeDir, findings: findings[i]!, scan: scan[i] }));
  return { index, findings: [], scan: [], skills, seen };
}

/** Each target's findings, and its scan: validate, then the scan on the files validate read. */
async function checkTargets(
  job: ShardJob,
  targets: readonly ValidateTarget[],
  caches: ShardCaches,
  readDir: ReadDir,
  onProbe?: (path: string, existed: boolean) => void,
): Promise<{ findings: Finding[][]; scan: ScanResult[] }> {
  // SKILL.md is read once: validate keeps it for the scan of the same chunk.
  const files = job.scan ? createFileCache() : undefined;
  const validate = caches.validate;
  const options = {
    cwd: job.repo,
    profile: job.profile,
    ...(job.links ? { links: job.links } : {}),
    readDir,
    ...(files ? { files } : {}),
    ...(validate ? { cache: validate.cache } : {}),
    ...(validate?.tracked ? { tracked: validate.tracked } : {}),
    ...(files && caches.readAhead ? { readAhead: true } : {}),
    ...(onProbe ? { onProbe } : {}),
  };
  const findings = targets.map((target) => validateTargets([target], job.explicit, options));
  const scan = job.scan
    ? await scanSkillFolders(
        targets.map((t) => t.dir),
        { repo: job.repo, config: job.scan, readDir, ...(files ? { files } : {}), ...(caches.scan ? { cache: caches.scan } : {}) },
      )
    : [];
  return { findings, scan };
}

/** What a worker is handed at its start: its setup, and its skills unless it is started early (then a message brings them). */
export interface WorkerData {
  setup: ShardSetup;
  counters: Int32Array;
  slot: number;
  given: ShardTargets | undefined;
}

interface StartedWorker {
  /** Hands an early worker its skills. */
  give(targets: ShardTargets): void;
  /** Ends a worker the pass does not want. */
  stop(): void;
  /**
   * Its result; undefined when it failed (its chunks are then done again) or
   * was stopped having claimed none (unless `wait`).
   */
  result(wait: boolean): Promise<ShardResult | undefined>;
}

/** The worker's code beside this module's (lib/services/, or the CLI bundle's folder); absent when running from source. */
const defaultWorkerFile = fileURLToPath(new URL('./validate-worker.js', import.meta.url));

function startWorker(
  file: string,
  setup: ShardSetup,
  counters: Int32Array,
  slot: number,
  given: ShardTargets | undefined,
): StartedWorker | undefined {
  if (!existsSync(file)) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(file, { workerData: { setup, counters, slot, given } satisfies WorkerData });
  } catch {
    return undefined;
  }
  // Taken in as they come (this thread lets its event loop run between its own chunks): only the last arrives at the end.
  const streamed: ShardResult = { chunks: [], validatePuts: [], scanPuts: [], listings: [] };
  const done = new Promise<ShardResult | undefined>((resolve) => {
    worker.on('message', (message: WorkerMessage) => {
      if ('listings' in message) {
        streamed.listings = message.listings;
        if (message.stamps !== undefined) streamed.stamps = message.stamps;
        if (message.probes) streamed.probes = message.probes;
        resolve(streamed);
        return;
      }
      streamed.chunks.push(message.chunk);
      for (const put of message.validatePuts) streamed.validatePuts.push(put);
      for (const put of message.scanPuts) streamed.scanPuts.push(put);
    });
    worker.once('error', () => resolve(undefined));
    worker.once('exit', () => resolve(undefined));
  });
  return {
    give(targets) {
      worker.postMessage(targets);
    },
    stop() {
      void worker.terminate();
    },
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
