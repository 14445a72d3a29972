import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The shared corpus sits beside the checkout: `<checkout>/../shared/corpus`. */
export const corpusRoot = join(here, '..', '..', '..', 'shared', 'corpus');
export const corpusSkillsRoot = join(corpusRoot, 'skills');
export const corpusTranscriptsRoot = join(corpusRoot, 'transcripts');
export const hasCorpus = existsSync(corpusSkillsRoot);
export const corpusMissingMessage = `corpus not found at ${corpusSkillsRoot}: corpus tests skipped`;

export interface CorpusSkill {
  /** Absolute path of SKILL.md. */
  file: string;
  /** Path relative to the corpus skills root, for messages. */
  relative: string;
  folder: string;
}

/** Every SKILL.md in the corpus, in a stable order. */
export function listCorpusSkills(): CorpusSkill[] {
  const out: CorpusSkill[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (entry === 'SKILL.md') out.push({ file: path, relative: relative(corpusSkillsRoot, path), folder: basename(dirname(path)) });
    }
  };
  if (hasCorpus) walk(corpusSkillsRoot);
  return out;
}
