/**
 * A worker thread of `validate`'s pass (validate-pass.ts): it opens its own
 * view of the caches, takes chunks of skills from the shared counter until
 * none is left, and posts each chunk's findings and what it added to the caches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDirCache, recordListings } from '../store/dir-cache.js';
import { openKeptListings } from '../store/dir-listings-file.js';
import { stampPaths } from '../store/folder-stamp.js';
import { prepareScanEngine } from '../store/scan/scan-skill-dir.js';
import { openShardCaches, runChunks, worthStamping, type ShardTargets, type WorkerData } from './validate-pass.js';

const { setup, counters, slot, given } = workerData as WorkerData;
// Started early, it opens its caches while discovery runs, then waits for its skills.
const caches = await openShardCaches(setup);
const kept = setup.keptListings ? await openKeptListings(setup.repo) : undefined;
// Waiting for its skills: the scan's engine is loaded and its rule table compiled now rather than on the first file.
if (!given && setup.scan) await prepareScanEngine();
const targets = given ?? (await new Promise<ShardTargets>((resolve) => parentPort?.once('message', resolve)));
const cached = createDirCache(targets.listings, kept?.kept);
// For validate's memo (`stampsSince`): what this thread lists and probes is noted, and stamped once its chunks are done.
const since = setup.stampsSince;
const listed = new Set<string>();
const probes = new Map<string, boolean>();
const readDir = since === undefined ? cached : recordListings(cached, listed);
// Each chunk is posted as it is done (see WorkerMessage), then the listings (and the stamps).
await runChunks({ ...setup, ...targets }, counters, caches, {
  slot,
  readDir,
  post: (message) => parentPort?.postMessage(message),
  ...(since === undefined
    ? {}
    : {
        onProbe: (path: string, existed: boolean) => probes.set(path, existed),
        // A worker of a run the memo will not keep (it computed, and its caches knew entries) stamps nothing.
        lastWords: () => ({ stamps: worthStamping(caches) ? (stampPaths(listed, cached, since) ?? null) : null, probes: [...probes] }),
      }),
});
