// What the edges (CLI, Action, MCP server) ask of the library on disk. Discovery is the store's; an edge reaches it
// through this module, as it reaches every other outside system through a service, so the lint can keep edges off
// the adapters.
export {
  findSkillRoots,
  openLibrary,
  readLibraryRoots,
  readPrimaryRoot,
  renderEmptyLibrary,
  requireSkills,
  type DiscoveredLibrary,
} from '../store/layout/discover-library.js';
export { listRegularFiles } from '../store/regular-files.js';
