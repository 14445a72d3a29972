// The ledger as the edges hold it: opened by an edge and handed to the services that write (manage, rollback, fix).
export type { Ledger, LedgerBackend } from '../ledger/ledger.js';
import type { OpenLedgerOptions } from '../ledger/open-ledger.js';
import type { Ledger } from '../ledger/ledger.js';

/** Loaded when a command writes: the git backends (isomorphic-git, simple-git) are most of a read-only command's code. */
export async function openLedger(dir: string, options: OpenLedgerOptions = {}): Promise<Ledger> {
  const { openLedger: open } = await import('../ledger/open-ledger.js');
  return open(dir, options);
}
