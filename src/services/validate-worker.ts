/**
 * A worker thread of `validate`'s pass (validate-pass.ts): it opens its own
 * view of the caches, takes chunks of skills from the shared counter until
 * none is left, and hands back the findings and what it added to the caches.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDirCache } from '../store/dir-cache.js';
import { openShardCaches, runChunks, type ShardJob } from './validate-pass.js';

const { job, counters, slot } = workerData as { job: ShardJob; counters: Int32Array; slot: number };
const caches = await openShardCaches(job);
parentPort?.postMessage(await runChunks(job, counters, caches, { slot, readDir: createDirCache(job.listings) }));
