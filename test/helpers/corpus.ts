import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, basename, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The full shared corpus sits beside the checkout: `<checkout>/../shared/corpus`.
 * `SKILLGARDEN_CORPUS` points elsewhere (or at a missing path, to prove the fixture fallback).
 */
export const corpusRoot = process.env.SKILLGARDEN_CORPUS
  ? resolve(process.env.SKILLGARDEN_CORPUS)
  : join(here, '..', '..', '..', 'shared', 'corpus');
export const corpusSkillsRoot = join(corpusRoot, 'skills');
export const corpusTranscriptsRoot = join(corpusRoot, 'transcripts');
export const hasCorpus = existsSync(corpusSkillsRoot);
export const hasTranscriptCorpus = existsSync(corpusTranscriptsRoot);
export const corpusMissingMessage = `corpus not found at ${corpusSkillsRoot}: corpus tests skipped`;

/** A small licensed subset of the corpus, committed with the tests (see its README.md), so every clone tests real skills. */
export const fixtureCorpusRoot = join(here, '..', 'fixtures', 'corpus');
/** The skills the corpus-reading tests run on: the full corpus when present, else the fixture set. */
export const skillsRoot = hasCorpus ? corpusSkillsRoot : join(fixtureCorpusRoot, 'skills');
/** The transcripts the corpus-reading tests run on: the full corpus when present, else the fixture set. */
export const transcriptsRoot = hasTranscriptCorpus ? corpusTranscriptsRoot : join(fixtureCorpusRoot, 'transcripts');

/**
 * Whether a missing full corpus fails the run. The project's CI (`.ci/run`, which has the shared corpus
 * beside the checkout) requires it; a public runner without the corpus says so explicitly with
 * SKILLGARDEN_REQUIRE_CORPUS=0 (see .github/workflows/ci.yml) and runs the fixture set.
 */
const requireFullCorpus = process.env.SKILLGARDEN_REQUIRE_CORPUS === '1';

/**
 * A describe block whose assertions are about the whole corpus (716 skills, per-rule counts), so it
 * cannot run on the fixture set. When `path` is missing: where the corpus is required (SKILLGARDEN_REQUIRE_CORPUS=1, as .ci/run sets it) it fails with a test that
 * names the path, because CI must test as much as it always did; elsewhere it skips and says why.
 */
export function describeFullCorpus(name: string, fn: () => void, path: string = corpusSkillsRoot): void {
  if (existsSync(path)) {
    describe(name, fn);
    return;
  }
  const message = `full corpus not found at ${path} (set SKILLGARDEN_CORPUS, or check out the shared corpus beside the repository)`;
  if (requireFullCorpus) {
    describe(name, () => {
      it('needs the full corpus', () => {
        throw new Error(`${message}: SKILLGARDEN_REQUIRE_CORPUS=1 requires the whole-corpus tests`);
      });
    });
    return;
  }
  console.warn(`${message}: "${name}" skipped`);
  describe.skip(name, fn);
}

export interface CorpusSkill {
  /** Absolute path of SKILL.md. */
  file: string;
  /** Path relative to the skills root, for messages. */
  relative: string;
  folder: string;
}

/** Every SKILL.md under `root` (the full corpus, else the fixture set), in a stable order. */
export function listCorpusSkills(root: string = skillsRoot): CorpusSkill[] {
  const out: CorpusSkill[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (entry === 'SKILL.md') out.push({ file: path, relative: relative(root, path), folder: basename(dirname(path)) });
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

/**
 * For one `it` about the whole corpus: `it.skipIf(missingFullCorpus(path))(...)`. True (skip, with a
 * message) when `path` is missing and not required; required, a missing corpus throws, failing the file.
 */
export function missingFullCorpus(path: string = corpusSkillsRoot): boolean {
  if (existsSync(path)) return false;
  const message = `full corpus not found at ${path} (set SKILLGARDEN_CORPUS, or check out the shared corpus beside the repository)`;
  if (requireFullCorpus) throw new Error(`${message}: SKILLGARDEN_REQUIRE_CORPUS=1 requires the whole-corpus tests`);
  console.warn(`${message}: whole-corpus test skipped`);
  return true;
}
