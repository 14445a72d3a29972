/**
 * The part of the scan that reads a file and judges its bytes, imported by
 * scan-skill-dir.ts only once a file is not answered by the scan cache (see
 * loadEngine there): the rule table, the trigger matcher and the content
 * decoders are most of the scan's code.
 */
export { buildContentFindings } from '../../core/scan/content-findings.js';
export { scanSkillText } from '../../core/scan/match.js';
export { blobId } from '../files.js';
export { readContentWithStat } from './read-content.js';
