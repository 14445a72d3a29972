/**
 * A worker thread of `validate`'s pass (validate-pass.ts): it opens its own
 * view of the caches, takes chunks of skills from the shared counter until
 * none is left, and posts each chunk's findings and what it added to the caches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDirCache } from '../store/dir-cache.js';
import { openKeptListings } from '../store/dir-listings-file.js';
import { prepareScanEngine } from '../store/scan/scan-skill-dir.js';
import { openShardCaches, runChunks, type ShardTargets, type WorkerData } from './validate-pass.js';

const { setup, counters, slot, given } = workerData as WorkerData;
// Started early, it opens its caches while discovery runs, then waits for its skills.
const caches = await openShardCaches(setup);
const kept = setup.keptListings ? await openKeptListings(setup.repo) : undefined;
// Waiting for its skills: the scan's engine is loaded and its rule table compiled now rather than on the first file.
if (!given && setup.scan) await prepareScanEngine();
const targets = given ?? (await new Promise<ShardTargets>((resolve) => parentPort?.once('message', resolve)));
const readDir = createDirCache(targets.listings, kept?.kept);
// Each chunk is posted as it is done (see WorkerMessage), then the listings.
await runChunks({ ...setup, ...targets }, counters, caches, { slot, readDir, post: (message) => parentPort?.postMessage(message) });
