import { discoverSkills } from '../store/discover.js';
import type { ChatClientOptions } from '../llm/chat-client.js';
import { writeDraftProse } from '../llm/draft-prose.js';
import { openLibrary, type DiscoveredLibrary } from '../store/layout/discover-library.js';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { draftPatterns, type DraftLimits, type DraftProfile, type ExistingSkill } from '../core/patterns/draft.js';
import { minePatterns, type MineOptions } from '../core/patterns/mine.js';
import { defaultRefine, type RefineMap } from '../core/patterns/shape.js';
import { SessionStore } from '../core/patterns/session-store.js';
import type { DetectReport, SkillUse, Skipped, TranscriptFormat } from '../core/patterns/types.js';
import { buildSkillUses } from '../core/patterns/uses.js';
import { expandTranscriptPaths, type ExpandResult } from '../store/transcripts/expand-paths.js';
import { readTranscriptFiles, type ReadTranscriptsOptions } from '../store/transcripts/read-transcripts.js';
import type { FileReadResult } from '../store/transcripts/collector.js';

/** The `skipped` reason of a transcripts glob that matched no file (the curator reports it as `detect/no-match`). */
export const noTranscriptMatch = 'no transcript files match';

export interface DetectOptions extends Omit<MineOptions, 'fingerprint'> {
  /** Transcript files, folders or globs. */
  transcripts: readonly string[];
  /** Paths resolve against, and the report names files relative to, this folder (default: cwd). */
  cwd?: string;
  /** Force one format for every file instead of detecting it per file. */
  format?: TranscriptFormat;
  /** Shell tools refined by program (`Bash` → `Bash:git`); `false` turns it off. */
  refine?: RefineMap | false;
  /** Skills that may already cover a pattern (their SKILL.md text). */
  existingSkills?: readonly ExistingSkill[];
  /** Or a skills folder to read them from (every SKILL.md under it). */
  skillsDir?: string;
  profile?: DraftProfile;
  /** How many drafts, and how strong (`patterns:` in the config); `min_sessions` also sets the miner's `minSessions`. */
  limits?: Partial<DraftLimits>;
  maxLineBytes?: number;
  maxDocumentBytes?: number;
  /** The optional LLM pass: each draft's prose rewritten through this chat endpoint, checked, else kept as drafted. */
  llm?: ChatClientOptions;
}

/**
 * How a transcript is named in reports and drafts: relative to the current folder when it is inside it,
 * else relative to the folder it was found under. Never absolute: an absolute path names a person's home.
 */
function displayPath(file: string, cwd: string, root: string | undefined): string {
  const inside = (base: string): string | undefined => {
    const rel = relative(base, file);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? undefined : rel.split(sep).join('/');
  };
  return inside(cwd) ?? (root === undefined ? undefined : inside(root)) ?? basename(file);
}

/** The library's skills (the one discovery), as the drafts' "already covered" check reads them. */
export async function readExistingSkills(library: {
  skills: readonly Pick<DiscoveredLibrary['skills'][number], 'name' | 'dir'>[];
}): Promise<ExistingSkill[]> {
  return Promise.all(
    library.skills.map(async (s) => ({ name: s.name, text: await readFile(join(s.dir, 'SKILL.md'), 'utf8').catch(() => '') })),
  );
}

/** The skills of a repository's library (its `skills_dir` setting: a folder, a glob or a list), as `readExistingSkills`. */
export function readLibrarySkills(repoDir: string, skillsDir: string | readonly string[] | undefined): Promise<ExistingSkill[]> {
  return readExistingSkills(openLibrary(repoDir, skillsDir));
}

/** `skillsDir` given as a folder of skills: read as one root of the one discovery (archives and support folders left out). */
async function readSkillsDir(dir: string): Promise<ExistingSkill[]> {
  return readExistingSkills({ skills: discoverSkills(dir) });
}

/** What a detect run gathers from the transcripts as they are read: the sessions as drafts read them (packed), the skill uses, what was skipped. */
export class DetectFold {
  private readonly store: SessionStore;
  private readonly uses: SkillUse[] = [];
  readonly skipped: Skipped[] = [];

  constructor(
    private readonly options: DetectOptions,
    private readonly files: number,
  ) {
    this.store = new SessionStore(options.refine !== false);
  }

  add(result: FileReadResult): void {
    for (const session of result.sessions) this.store.add(session);
    // One by one: a file of a million sessions has more uses than a call's arguments may hold.
    for (const use of result.uses) this.uses.push(use);
    for (const skip of result.skipped) this.skipped.push(skip);
  }

  /** Mines the sessions read and drafts a SKILL.md per pattern no existing skill covers. */
  async finish(): Promise<DetectReport> {
    const options = this.options;
    const { store } = this;
    const minSessions = options.minSessions ?? options.limits?.min_sessions;
    const patterns = minePatterns(
      { packed: store.packed(), vocabulary: store.table.names },
      minSessions === undefined ? options : { ...options, minSessions },
    );
    const cwd = resolve(options.cwd ?? process.cwd());
    const existing =
      options.existingSkills ?? (options.skillsDir === undefined ? [] : await readSkillsDir(resolve(cwd, options.skillsDir)));
    const detected = draftPatterns(patterns, existing, {
      sessions: store.index(),
      refine: options.refine !== false,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.profile === undefined ? {} : { profile: options.profile }),
    });
    if (options.llm) {
      // One draft at a time: a run makes at most max_drafts of them, and an endpoint's rate limit is shared.
      for (const pattern of detected) {
        if (pattern.draft === undefined) continue;
        const prosed = await writeDraftProse(pattern.draft, options.llm);
        pattern.draft = { ...prosed.draft, llm: prosed.llm };
      }
    }
    return {
      sessions: store.sessions,
      calls: store.calls,
      files: this.files,
      skipped: this.skipped,
      patterns: detected,
      uses: buildSkillUses([{ uses: this.uses }]),
    };
  }
}

/** The transcript files a detect run reads, and how each is named in its report. */
export interface DetectInputs {
  files: string[];
  displayPath: (file: string) => string;
  /** Globs that matched nothing, a walk stopped at its limit. */
  skipped: Skipped[];
  /** The expansion itself: each file's root, the globs unmatched. */
  expanded: ExpandResult;
}

export async function expandDetectInputs(options: Pick<DetectOptions, 'transcripts' | 'cwd'>): Promise<DetectInputs> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const expanded = await expandTranscriptPaths(options.transcripts, { cwd });
  const skipped: Skipped[] = expanded.unmatched.map((pattern) => ({
    file: pattern,
    reason: noTranscriptMatch,
    count: 1,
  }));
  if (expanded.truncated)
    skipped.push({
      file: cwd,
      reason: 'directory walk stopped at its entry limit',
      count: 1,
    });
  return { files: expanded.files, displayPath: (file) => displayPath(file, cwd, expanded.roots.get(file)), skipped, expanded };
}

/** How a detect run reads each file (its format, refinement and limits). */
export function detectReadOptions(options: DetectOptions, displayPath: (file: string) => string): ReadTranscriptsOptions {
  return {
    refine: options.refine ?? defaultRefine,
    displayPath,
    ...(options.format === undefined ? {} : { format: options.format }),
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.maxDocumentBytes === undefined ? {} : { maxDocumentBytes: options.maxDocumentBytes }),
  };
}

/**
 * `skillgarden detect`: reads transcripts, mines repeated tool-call sequences
 * and drafts a SKILL.md per pattern no existing skill covers. Reads only;
 * the drafts are proposals in the report. Bad input never throws: it is
 * counted per file in `skipped`.
 */
export async function runDetect(options: DetectOptions): Promise<DetectReport> {
  const inputs = await expandDetectInputs(options);
  const fold = new DetectFold(options, inputs.files.length);
  fold.skipped.push(...inputs.skipped);
  for await (const result of readTranscriptFiles(inputs.files, detectReadOptions(options, inputs.displayPath))) fold.add(result);
  return fold.finish();
}
