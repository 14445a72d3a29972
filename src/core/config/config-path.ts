import { metaDir } from '../layout.js';

/** The config file, relative to the repository: a name of its own so a reader of the path alone need not load the parser. */
export const configFile = `${metaDir}/config.yaml`;
