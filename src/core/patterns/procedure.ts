import { isGenericCommand } from './generic.js';
import { listSkillCommandHeads } from './skill-commands.js';

/**
 * Programs whose commands can be a skill's procedure. Only these start a command read from a skill's code, so a
 * YAML key or a Python line in a fenced block is never taken for one.
 */
const knownPrograms = new Set(
  `git gh glab npm pnpm yarn npx bun bunx node deno tsx ts-node python python3 pip pip3 uv uvx poetry pipx pytest ruff black mypy tox nox
  cargo rustup go make cmake docker docker-compose podman kubectl helm terraform tofu ansible-playbook aws gcloud az psql mysql sqlite3
  redis-cli mongosh curl wget jq yq tar zip unzip ffmpeg magick convert pandoc pdftotext pdftoppm qpdf rsync ssh scp java mvn gradle
  dotnet ruby bundle rake rails gem php composer swift xcodebuild flutter dart mix elixir tsc eslint prettier jest vitest playwright
  alembic prisma knex supabase vercel netlify fly flyctl firebase heroku wrangler bash sh zsh twine gsutil openssl sqlx dbmate goose`
    .split(/\s+/)
    .filter(Boolean),
);

const interpreters = new Set(['python', 'python3', 'node', 'deno', 'tsx', 'ts-node', 'bash', 'sh', 'zsh', 'ruby', 'php']);
const runners = new Set(['npx', 'bunx', 'uvx', 'pipx']);
const scriptVerbs = new Set(['run', 'exec', 'x', 'dlx', 'run-script']);

/**
 * Commands nearly every coding session runs on the way to any task (installing, testing, committing, building): doing
 * them says nothing about which skill a session needed. Commands that only look around (`git status`, `ls`) are
 * `isGenericCommand`'s, defined once with the miner's; a skill's procedure is matched on the other commands only.
 */
const everyTaskKeys = new Set(
  `git add|git checkout|git switch|git commit|git push|git pull|git stash|git restore|git reset|git init|git clone|git config|git merge|
  git rebase|npm|npm install|npm i|npm ci|npm test|npm run test|npm run build|npm run lint|npm run dev|pnpm|pnpm install|pnpm i|pnpm test|
  yarn|yarn install|yarn test|bun install|bun test|pip install|pip3 install|python|python3|node|bash|sh|zsh|pytest|curl|wget|jq|make|
  cargo build|cargo test|cargo check|go build|go test|go run|docker ps|gh pr|git|gh|docker|cargo|go|uv|pip|npx|npx tsc|tsc|npx eslint|
  eslint|npx prettier|prettier|npx vitest|vitest|npx jest|jest`
    .split('|')
    .map((key) => key.trim())
    .filter(Boolean),
);

const plainWord = /^[a-z][a-z0-9:_.-]*$/;

function scriptOf(program: string, args: readonly string[]): string | undefined {
  const [first, second] = args.filter((word) => !word.startsWith('-') || word === '-m');
  if (first === '-m' && second !== undefined && plainWord.test(second)) return `${program} -m ${second}`;
  if (first === undefined || first === '-m') return program;
  const base = first.replace(/^["']|["']$/g, '').slice(first.lastIndexOf('/') + 1);
  return /\.[a-z0-9]{1,5}$/i.test(base) ? `${program} ${base.toLowerCase()}` : program;
}

/**
 * The identity of a command for matching a skill's procedure to a session: its program and sub-command, as the
 * transcript readers' `detail` heads give them (`npm version patch` → `npm version`, `npm run migrate` →
 * `npm run migrate`, `python scripts/fill.py x` → `python fill.py`, `npx prisma migrate dev` → `npx prisma migrate`,
 * `npx vitest run` → `npx vitest`).
 * Undefined for a program outside the known ones.
 */
export function buildCommandKey(detail: string): string | undefined {
  const [program = '', ...args] = detail.trim().split(/\s+/);
  if (!knownPrograms.has(program)) return undefined;
  if (interpreters.has(program)) return scriptOf(program, args);
  const [first, next] = args;
  // `npx prisma@5`: the tool, not its version.
  const sub = runners.has(program) ? first?.replace(/(.)@.*$/, '$1') : first;
  if (sub === undefined || !plainWord.test(sub)) return program;
  if (runners.has(program)) {
    // The tool's own sub-command names the step (`npx knex migrate:make`, `npx knex migrate:latest`): without it a
    // skill's steps through one tool collapse into one command, too few to match. A tool every task runs stays whole.
    const tool = `${program} ${sub}`;
    return next !== undefined && plainWord.test(next) && !everyTaskKeys.has(tool) ? `${tool} ${next}` : tool;
  }
  if (scriptVerbs.has(sub) && next !== undefined && plainWord.test(next)) return `${program} ${sub} ${next}`;
  return `${program} ${sub}`;
}

export function isUbiquitousCommand(key: string): boolean {
  return everyTaskKeys.has(key) || isGenericCommand(key);
}

/**
 * The distinctive commands of a skill's own procedure, as command keys: the heads of the commands its code runs
 * (`listSkillCommandHeads`, shared with coverage), each reduced by `buildCommandKey`, ubiquitous ones left out.
 */
export function listProcedureCommands(skillText: string): string[] {
  const keys = new Set<string>();
  for (const head of listSkillCommandHeads(skillText)) {
    const key = buildCommandKey(head);
    if (key !== undefined && !isUbiquitousCommand(key)) keys.add(key);
  }
  return [...keys].sort();
}

/** The command keys a session ran: its shell calls' details and the commands chained after them, each once. */
export function listSessionCommands(calls: readonly { program?: string; detail?: string; chain?: readonly string[] }[]): Set<string> {
  const keys = new Set<string>();
  for (const call of calls) {
    if (call.program === undefined || call.detail === undefined) continue;
    for (const detail of call.chain ? [call.detail, ...call.chain] : [call.detail]) {
      const key = buildCommandKey(detail);
      if (key !== undefined) keys.add(key);
    }
  }
  return keys;
}

/**
 * The miss rule by procedure: the session ran at least two of the skill's distinctive commands, and at least half
 * of them. One shared command is a coincidence; a skill with a single distinctive command is never matched this way.
 */
export function didProcedure(matched: number, commands: number): boolean {
  return matched >= 2 && matched * 2 >= commands;
}
