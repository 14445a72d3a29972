// The one spawn of the system git (src/ledger/system-git.ts), for the Action's own git work: fetch, push, its scratch clone.
export { runGit } from '../ledger/system-git.js';
