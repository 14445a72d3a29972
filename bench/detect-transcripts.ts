/**
 * Generated Claude Code JSONL transcripts for bench/detect-scale.ts: sessions of varied length over a coding
 * agent's tools (Read, Edit, Bash with real commands, Grep…), each call followed by its tool_result (5 % of them
 * errors), the person's request first, and five procedures planted in 10–40 % of sessions, each after a request
 * that asks for it. Lines carry the fields Claude Code writes that the reader uses (type, sessionId, timestamp,
 * message), not the envelope it adds around them (cwd, version, gitBranch, uuids), so a figure is the reader's
 * and the miner's cost per call, not per byte of envelope.
 */
import { createWriteStream } from 'node:fs';
import { seededRandom } from '../test/helpers/random.js';

type Input = Record<string, string>;

const files = ['src/app.ts', 'src/parser.ts', 'src/cli/main.ts', 'README.md', 'package.json', 'test/parser.test.ts', 'lib/util.py'];
const commands = [
  'git status',
  'git diff',
  'git log --oneline -5',
  'ls -la',
  'npm test',
  'npm run build',
  'npm run lint',
  'cat package.json',
  'grep -rn TODO src',
  'python3 -m pytest -q',
  'cargo build',
  'make',
  'node scripts/check.js',
];
/** Noise tools with their weights (how often agents call them). */
const noise: Array<[number, (r: () => number) => [string, Input]]> = [
  [30, (r) => ['Read', { file_path: `/home/u/project/${pick(files, r)}` }]],
  [22, (r) => ['Bash', { command: pick(commands, r), description: 'Run it' }]],
  [15, (r) => ['Edit', { file_path: `/home/u/project/${pick(files, r)}`, old_string: 'const a = 1;', new_string: 'const a = 2;' }]],
  [10, (r) => ['Grep', { pattern: pick(['TODO', 'export function', 'import'], r), path: 'src' }]],
  [6, () => ['Glob', { pattern: '**/*.ts' }]],
  [5, (r) => ['Write', { file_path: `/home/u/project/${pick(files, r)}`, content: 'export {};\n' }]],
  [5, () => ['TodoWrite', { todos: '[]' }]],
  [4, () => ['Task', { description: 'Explore', prompt: 'Find the parser' }]],
  [3, () => ['WebFetch', { url: 'https://example.com/docs', prompt: 'read' }]],
];
const noiseTotal = noise.reduce((sum, [w]) => sum + w, 0);

/** Five procedures, each with the words a person uses to ask for it. */
export const planted: Array<{ request: string; steps: Array<[string, Input]> }> = [
  {
    request: 'Publish a new release of the package to npm',
    steps: [
      ['Bash', { command: 'npm test' }],
      ['Bash', { command: 'npm version patch' }],
      ['Bash', { command: 'git push --follow-tags' }],
      ['Bash', { command: 'npm publish' }],
    ],
  },
  {
    request: 'Add a database migration for the users table',
    steps: [
      ['Read', { file_path: '/home/u/project/prisma/schema.prisma' }],
      ['Edit', { file_path: '/home/u/project/prisma/schema.prisma', old_string: 'a', new_string: 'b' }],
      ['Bash', { command: 'npx prisma migrate dev --name add-column' }],
      ['Bash', { command: 'npx prisma generate' }],
    ],
  },
  {
    request: 'Fix the lint errors and commit the fix',
    steps: [
      ['Bash', { command: 'npx eslint --fix .' }],
      ['Bash', { command: 'git add -A' }],
      ['Bash', { command: 'git commit -m "lint: fix"' }],
    ],
  },
  {
    request: 'Rebuild the docker image and deploy the staging service',
    steps: [
      ['Bash', { command: 'docker build -t app .' }],
      ['Bash', { command: 'docker push registry/app' }],
      ['Bash', { command: 'kubectl rollout restart deployment/app' }],
      ['Bash', { command: 'kubectl rollout status deployment/app' }],
      ['WebFetch', { url: 'https://staging.example.com/health', prompt: 'ok?' }],
    ],
  },
  {
    request: 'Update the changelog and tag the version',
    steps: [
      ['Read', { file_path: '/home/u/project/CHANGELOG.md' }],
      ['Edit', { file_path: '/home/u/project/CHANGELOG.md', old_string: 'a', new_string: 'b' }],
      ['Bash', { command: 'git tag v1.2.3' }],
    ],
  },
];
const requests = [
  'Fix the failing test in the parser',
  'Refactor the CLI argument handling',
  'Why does the build fail on CI?',
  'Add a flag to skip the cache',
  'Clean up the unused imports',
];

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)] as T;
}

function pickNoise(random: () => number): [string, Input] {
  let r = random() * noiseTotal;
  for (const [weight, make] of noise) {
    r -= weight;
    if (r < 0) return make(random);
  }
  return (noise[0] as (typeof noise)[number])[1](random);
}

/** Writes one file's sessions as Claude Code JSONL lines, without holding the file in memory. */
export class TranscriptWriter {
  private readonly out;
  private buffer: string[] = [];
  private call = 0;
  /** Tool calls written so far. */
  calls = 0;
  private clock = Date.parse('2026-11-02T09:00:00Z');

  constructor(
    path: string,
    private readonly random: () => number,
  ) {
    this.out = createWriteStream(path);
  }

  private async line(text: string): Promise<void> {
    this.buffer.push(text);
    if (this.buffer.length >= 4096) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.buffer.join('\n') + '\n';
    this.buffer = [];
    if (!this.out.write(chunk)) await new Promise<void>((done) => this.out.once('drain', () => done()));
  }

  private stamp(): string {
    this.clock += 1000 + Math.floor(this.random() * 9000);
    return new Date(this.clock).toISOString();
  }

  private async request(session: string, text: string): Promise<void> {
    const message = JSON.stringify({ role: 'user', content: text });
    await this.line(`{"type":"user","sessionId":"${session}","timestamp":"${this.stamp()}","message":${message}}`);
  }

  private async toolCall(session: string, [name, input]: [string, Input]): Promise<void> {
    this.calls += 1;
    const id = `toolu_${(this.call += 1).toString(36).padStart(10, '0')}`;
    const use = JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id, name, input }] });
    await this.line(`{"type":"assistant","sessionId":"${session}","timestamp":"${this.stamp()}","message":${use}}`);
    const error = this.random() < 0.05 ? ',"is_error":true' : '';
    await this.line(
      `{"type":"user","sessionId":"${session}","timestamp":"${this.stamp()}","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":"ok"${error}}]}}`,
    );
  }

  /** One session of `calls` calls: a request, noise, and each planted procedure with its chance. */
  async session(id: string, calls: number): Promise<void> {
    const random = this.random;
    await this.request(id, pick(requests, random));
    const plants = planted.filter((_, p) => random() < 0.1 + p * 0.075);
    const at = plants.map(() => Math.floor(random() * calls));
    for (let i = 0; i < calls; i += 1) {
      const index = at.indexOf(i);
      const plant = plants[index];
      if (plant === undefined) await this.toolCall(id, pickNoise(random));
      else {
        await this.request(id, plant.request);
        for (const step of plant.steps) await this.toolCall(id, step);
        i += plant.steps.length - 1;
      }
    }
  }

  async close(): Promise<void> {
    if (this.buffer.length > 0) await this.flush();
    await new Promise<void>((done, fail) => this.out.end((error?: Error | null) => (error ? fail(error) : done())));
  }
}

export function sessionId(n: number): string {
  // A UUID's length, as Claude Code names sessions.
  return `5e551013-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** `sessions` sessions of about `calls / sessions` calls each (from a fifth to 1.8 times that), over `fileCount` files. */
export async function writeSessions(
  pathOf: (file: number) => string,
  options: { sessions: number; calls: number; files: number; seed: number },
): Promise<number> {
  const random = seededRandom(options.seed);
  const mean = options.calls / options.sessions;
  const perFile = Math.ceil(options.sessions / options.files);
  let written = 0;
  for (let f = 0; f < options.files; f += 1) {
    const writer = new TranscriptWriter(pathOf(f), random);
    for (let s = f * perFile; s < Math.min(options.sessions, (f + 1) * perFile); s += 1)
      await writer.session(sessionId(s), Math.max(1, Math.round(mean * (0.2 + 1.6 * random()))));
    await writer.close();
    written += writer.calls;
  }
  return written;
}
