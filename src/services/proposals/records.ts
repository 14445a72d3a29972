import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../store/files.js';
import { SkillgardenError } from '../../core/errors.js';

/** What skillgarden remembers of a proposal branch it wrote, in the repository's git folder (never committed). */
export interface ProposalRecord {
  kind: string;
  name: string;
  fingerprint: string;
  /** The commit the branch got. */
  commit: string;
  base: string;
  written_at: string;
  /** Set when a person declined it (`proposals decline`, or by deleting the branch). */
  declined_at?: string;
}

export interface ProposalRecords {
  version: 1;
  proposals: Record<string, ProposalRecord>;
}

export function recordsPath(commondir: string): string {
  return join(commondir, 'skillgarden', 'proposals.json');
}

export function readRecords(commondir: string): ProposalRecords {
  const path = recordsPath(commondir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { version: 1, proposals: {} };
  }
  try {
    const data = JSON.parse(text) as ProposalRecords;
    if (data.version === 1 && typeof data.proposals === 'object' && data.proposals !== null) return data;
  } catch {
    // Reported below: a proposal memory that cannot be read must not be overwritten, or declines would be forgotten.
  }
  throw new SkillgardenError(
    'proposals/bad-records',
    `${path} is not a skillgarden proposal record (version 1). Move it aside and run again.`,
  );
}

/** Written whole to a temporary file, then renamed: never half a file. */
export function writeRecords(commondir: string, records: ProposalRecords): void {
  writeFileAtomic(recordsPath(commondir), `${JSON.stringify(records, null, 2)}\n`);
}
