/**
 * The demo's simulated 120 days: skills an agent wrote for itself while it
 * worked, how often each was used since, and what a person did.
 */
export interface DemoSkill {
  name: string;
  description: string;
  steps: string[];
  /** Day (0–120) the agent created it, in the background. */
  createdDay: number;
  /** Days it was used (loaded for a task). */
  usedDays: number[];
  viewedDays?: number[];
  pinnedDay?: number;
  category?: string;
}

export const demoDays = 120;

const steps = (...lines: string[]) => lines;

export const demoSkills: DemoSkill[] = [
  {
    name: 'pytest-flaky-rerun',
    description: 'Re-runs flaky pytest tests in isolation to tell real failures from flakes. Use when a CI test fails intermittently.',
    steps: steps(
      'Run the failing test alone with `pytest -x -k NAME -p no:randomly`.',
      'Repeat it 20 times with `--count=20` (pytest-repeat).',
      'If it passes every time, look for shared state or test order.',
    ),
    createdDay: 3,
    usedDays: [4, 9, 15, 31, 44, 62, 80, 101, 112, 117],
  },
  {
    name: 'git-bisect-regression',
    description:
      'Finds the commit that introduced a regression with git bisect and a test command. Use when something worked in an older release.',
    steps: steps(
      'Mark the bad and the last good commit.',
      'Run `git bisect run <test command>`.',
      'Read the first bad commit; `git bisect reset`.',
    ),
    createdDay: 6,
    usedDays: [7, 58, 111],
  },
  {
    name: 'csv-dedupe-rows',
    description: 'Removes duplicate rows from a CSV by a key column, keeping the newest. Use when merging exported spreadsheets.',
    steps: steps(
      'Load with pandas, parse the date column.',
      'Sort by date, `drop_duplicates(subset=key, keep="last")`.',
      'Write back with the original column order.',
    ),
    createdDay: 10,
    usedDays: [11, 12],
  },
  {
    name: 'latex-table-from-csv',
    description: 'Turns a CSV into a booktabs LaTeX table with aligned decimals. Use when a paper needs a results table.',
    steps: steps(
      'Read the CSV; round to the reported precision.',
      'Emit `\\toprule`, `\\midrule`, `\\bottomrule` with siunitx S columns.',
      'Check the table compiles in the paper.',
    ),
    createdDay: 14,
    usedDays: [15],
  },
  {
    name: 'docker-prune-space',
    description: 'Frees disk space taken by Docker images, volumes and build cache safely. Use when a build machine runs out of disk.',
    steps: steps(
      '`docker system df` to see what takes space.',
      '`docker image prune -a --filter until=168h`.',
      '`docker builder prune --keep-storage 10GB`.',
    ),
    createdDay: 20,
    usedDays: [],
  },
  {
    name: 'arxiv-fetch-abstract',
    description: 'Fetches the title and abstract of an arXiv paper by id. Use when summarising a cited preprint.',
    steps: steps(
      'Query the arXiv API with the id.',
      'Parse the Atom entry for title, authors and summary.',
      'Quote the abstract with its id and version.',
    ),
    createdDay: 24,
    usedDays: [25, 26, 40, 85, 98, 104, 115, 118],
    category: 'research',
  },
  {
    name: 'pdf-extract-figures',
    description: 'Extracts embedded figures from a PDF at full resolution. Use when reusing a figure from a paper, with permission.',
    steps: steps('List images with `pdfimages -list`.', 'Extract with `pdfimages -png`.', 'Match pages to figure numbers.'),
    createdDay: 33,
    usedDays: [34],
    category: 'research',
  },
  {
    name: 'matplotlib-font-fix',
    description: 'Fixes missing-glyph warnings and wrong fonts in matplotlib figures. Use when figures show boxes instead of characters.',
    steps: steps(
      'Find the font with `fc-list`.',
      'Clear the font cache (`~/.cache/matplotlib`).',
      'Set `rcParams["font.family"]` explicitly.',
    ),
    createdDay: 41,
    usedDays: [],
    viewedDays: [110],
  },
  {
    name: 'release-notes-draft',
    description: 'Drafts release notes from merged pull requests since the last tag. Use before cutting a release.',
    steps: steps(
      '`git log --merges LAST_TAG..HEAD`.',
      'Group by label: features, fixes, internal.',
      'Write one line per change, user-facing first.',
    ),
    createdDay: 50,
    usedDays: [51, 83],
    pinnedDay: 90,
  },
  {
    name: 'nightly-backup-check',
    description: 'Checks that the nightly backup ran and can be restored. Use every morning after the backup job.',
    steps: steps('Read the backup log for the last run.', 'Restore one file to a scratch folder.', 'Compare checksums.'),
    createdDay: 55,
    usedDays: [],
  },
  {
    name: 'sql-explain-slow-query',
    description:
      'Explains why a SQL query is slow with EXPLAIN ANALYZE and suggests an index. Use when a page or job is slow because of the database.',
    steps: steps(
      'Run `EXPLAIN (ANALYZE, BUFFERS)` on the query.',
      'Find sequential scans on large tables.',
      'Propose an index; measure again.',
    ),
    createdDay: 95,
    usedDays: [96, 102],
  },
  // Three narrow notes from three sessions on one task: the consolidation planner should propose one umbrella.
  {
    name: 'git-rebase-onto',
    description: 'Moves a feature branch onto a new base with git rebase --onto. Use when a branch was cut from the wrong base branch.',
    steps: steps(
      'Find the old base commit with `git merge-base feature old-base`.',
      'Run `git rebase --onto new-base old-base feature`.',
      'Resolve conflicts, `git rebase --continue`, then force-push with lease.',
    ),
    createdDay: 70,
    usedDays: [71, 99, 114],
  },
  {
    name: 'git-rebase-interactive',
    description:
      'Cleans up a feature branch history with git rebase -i before review. Use when a branch has fixup and work-in-progress commits.',
    steps: steps(
      'Find the base with `git merge-base feature main`.',
      'Run `git rebase -i` on it; mark fixups as `fixup`, reorder, reword.',
      'Resolve conflicts, `git rebase --continue`, then force-push with lease.',
    ),
    createdDay: 72,
    usedDays: [73, 105, 116],
  },
  {
    name: 'git-rebase-conflicts',
    description: 'Resolves conflicts during a git rebase without losing work. Use when a rebase stops on a conflict.',
    steps: steps(
      'See the conflicting files with `git status`.',
      'Edit, `git add` each file, then `git rebase --continue`.',
      'If it goes wrong, `git rebase --abort` and force-push with lease only when done.',
    ),
    createdDay: 74,
    usedDays: [75, 109, 119],
  },
  {
    name: 'bibtex-clean-entries',
    description: 'Normalises BibTeX entries: keys, title casing, DOIs. Use before submitting a paper.',
    steps: steps('Parse the .bib file.', 'Protect proper nouns in titles with braces.', 'Add missing DOIs from Crossref.'),
    createdDay: 108,
    usedDays: [],
    category: 'research',
  },
];

/** A scheduled job that runs a skill by name: the curator must count it as in use. */
export const demoCronFile = {
  path: 'cron/nightly.yaml',
  text: 'jobs:\n  - name: nightly backup check\n    schedule: "0 7 * * *"\n    skill: nightly-backup-check\n',
};

/** Tool calls of agent sessions in skillgarden's compact transcript format: one procedure repeated across sessions, among varied other work. */
export function demoTranscript(start: Date): string {
  const procedure: [string, Record<string, string>][] = [
    ['search_papers', { query: 'topic' }],
    ['download_paper', { id: 'arxiv-id' }],
    ['rag_search', { question: 'text' }],
    ['write_summary', { path: 'notes.md' }],
  ];
  const pool: [string, Record<string, string>][] = [
    ['Read', { file_path: 'src/app.ts' }],
    ['Grep', { pattern: 'TODO' }],
    ['Edit', { file_path: 'src/app.ts' }],
    ['Bash', { command: 'npm test' }],
    ['Bash', { command: 'git status' }],
    ['Write', { file_path: 'notes.md' }],
    ['WebFetch', { url: 'https://example.org' }],
    ['Glob', { pattern: '**/*.md' }],
  ];
  let seed = 7;
  // The high bits of an LCG: its low bits cycle with a short period.
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) % pool.length;
  const lines: string[] = [];
  for (let session = 1; session <= 6; session++) {
    const at = (i: number) => new Date(start.getTime() + session * 86_400_000 * 9 + i * 60_000).toISOString();
    const noise = (n: number) => Array.from({ length: n }, () => pool[next()] as [string, Record<string, string>]);
    const calls = [...noise(3), ...(session <= 5 ? procedure : []), ...noise(3)];
    const topics = [
      'retrieval models',
      'protein folding',
      'graph neural networks',
      'sparse attention',
      'diffusion samplers',
      'code review',
    ];
    // What the person asked: drafts are named and described from it.
    lines.push(
      JSON.stringify({
        session: `demo-${session}`,
        user: `Summarize the latest papers on ${topics[session - 1] ?? 'AI'} into notes.md`,
        ts: at(0),
      }),
    );
    calls.forEach(([tool, args], i) => lines.push(JSON.stringify({ session: `demo-${session}`, tool, args, ts: at(i) })));
    if (session % 2 === 0)
      lines.push(JSON.stringify({ session: `demo-${session}`, tool: 'Skill', args: { skill: 'arxiv-fetch-abstract' }, ts: at(20) }));
  }
  return `${lines.join('\n')}\n`;
}
