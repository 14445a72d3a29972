// The ledger read back for a person (`skillgarden log`).
export { readLog, type ReadLogOptions } from '../ledger/log.js';
