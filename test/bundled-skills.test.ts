import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isCollection, isMap, parseDocument, visit } from 'yaml';
import { validateAsRestated } from '../bench/skills-ref/restated-rules.js';
import { profileNames } from '../src/core/schema/index.js';
import { runValidate } from '../src/services/validate.js';

const skillsRoot = fileURLToPath(new URL('../skills', import.meta.url));
const bundled = ['academic-presentations', 'scientific-plotting', 'skill-authoring', 'systematic-literature-review'];
const specKeys = new Set(['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools']);
const namePattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const execFileAsync = promisify(execFile);

interface SplitSkill {
  frontmatter: string;
  body: string;
}

function splitSkill(text: string): SplitSkill {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error('SKILL.md must open with a --- frontmatter block closed by a --- line');
  return { frontmatter: match[1] ?? '', body: match[2] ?? '' };
}

/** Markdown link and image targets outside fenced code blocks and inline code. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

function isLocal(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//') && !target.startsWith('#');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function codePoints(text: string): number {
  return [...text].length;
}

describe('the bundled skills folder', () => {
  it('holds exactly the four bundled skills', () => {
    const folders = readdirSync(skillsRoot, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.map((e) => e.name).sort()).toEqual(bundled);
  });
});

describe('the bundled skills under skillgarden validate', () => {
  it.each(profileNames)('have no findings at all under the %s profile', (profile) => {
    const report = runValidate({ cwd: skillsRoot, paths: bundled, profile });
    expect(report.skills).toBe(bundled.length);
    expect(report.findings).toEqual([]);
  });

  it.each(bundled)('%s passes the reference validator rules (skills-ref, restated: StrictYAML subset)', (folder) => {
    expect(validateAsRestated(join(skillsRoot, folder))).toEqual([]);
  });
});

describe.each(bundled)('bundled skill %s', (folder) => {
  const dir = join(skillsRoot, folder);
  const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
  const { frontmatter, body } = splitSkill(text);
  const doc = parseDocument(frontmatter);
  const data = doc.toJS() as Record<string, unknown>;

  it('has frontmatter that is a YAML map without errors, in block style only', () => {
    expect(doc.errors).toEqual([]);
    expect(isMap(doc.contents)).toBe(true);
    // StrictYAML readers (the reference skills-ref validator) reject flow-style [..] and {..}.
    const flow: string[] = [];
    visit(doc, (_key, node) => {
      if (isCollection(node) && node.flow) flow.push(String(node));
    });
    expect(flow).toEqual([]);
  });

  it('uses only Agent Skills spec keys, with string values', () => {
    expect(Object.keys(data).filter((key) => !specKeys.has(key))).toEqual([]);
    for (const key of ['name', 'description', 'license', 'compatibility', 'allowed-tools']) {
      if (key in data) expect(typeof data[key], key).toBe('string');
    }
    expect(data.license).toBe('MIT');
    const metadata = data.metadata as Record<string, unknown>;
    expect(Object.values(metadata).every((value) => typeof value === 'string')).toBe(true);
    expect(metadata).toMatchObject({ version: '1.0.0', author: 'skillgarden' });
  });

  it('has a kebab-case name of at most 64 characters that equals its folder', () => {
    expect(data.name).toBe(folder);
    expect(String(data.name)).toMatch(namePattern);
    expect(codePoints(String(data.name))).toBeLessThanOrEqual(64);
  });

  it('has a description that says what and when, within 1024 characters and without angle brackets', () => {
    const description = String(data.description);
    expect(codePoints(description)).toBeGreaterThan(100);
    expect(codePoints(description)).toBeLessThanOrEqual(1024);
    expect(description).not.toMatch(/[<>]/);
    expect(description).toMatch(/\bUse when\b/);
  });

  it('keeps compatibility within 500 characters', () => {
    const compatibility = data.compatibility ?? '';
    expect(typeof compatibility).toBe('string');
    expect(codePoints(compatibility as string)).toBeLessThanOrEqual(500);
  });

  it('has a body of at most 500 lines', () => {
    expect(body.trim().length).toBeGreaterThan(0);
    expect(body.split('\n').length).toBeLessThanOrEqual(500);
  });

  it('links only to files that exist inside the skill, from SKILL.md and its references', () => {
    const markdown = [join(dir, 'SKILL.md'), ...filesUnder(dir).filter((f) => f.includes(`${sep}references${sep}`))];
    const broken: string[] = [];
    for (const file of markdown) {
      for (const target of linkTargets(readFileSync(file, 'utf8')).filter(isLocal)) {
        const path = resolve(dirname(file), decodeURIComponent(target.replace(/[?#].*$/, '')));
        const inside = !relative(dir, path).startsWith('..');
        if (!inside || !existsSync(path) || !statSync(path).isFile()) broken.push(`${relative(dir, file)} -> ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('links every support file from SKILL.md (progressive disclosure, no orphans)', () => {
    const linked = new Set(linkTargets(body).filter(isLocal));
    const support = filesUnder(dir)
      .map((file) => relative(dir, file).split(sep).join('/'))
      .filter((path) => path !== 'SKILL.md');
    expect(support.length).toBeGreaterThan(0);
    expect(support.filter((path) => !linked.has(path))).toEqual([]);
  });

  it('contains no nested SKILL.md that discovery would take for another skill', () => {
    const nested = filesUnder(dir).filter((file) => file.endsWith(`${sep}SKILL.md`) && dirname(file) !== dir);
    expect(nested).toEqual([]);
  });
});

describe('bundled templates are well-formed', () => {
  it('the extraction sheet has as many fields in every row as in its header', () => {
    const csv = readFileSync(join(skillsRoot, 'systematic-literature-review/templates/extraction-sheet.csv'), 'utf8');
    const rows = csv.trimEnd().split('\n');
    // No quoted fields in this template, so a comma count is exact.
    const widths = rows.map((row) => row.split(',').length);
    expect(rows.length).toBeGreaterThan(1);
    expect(new Set(widths).size).toBe(1);
  });

  it('the Beamer skeleton opens and closes every environment in order', () => {
    const tex = readFileSync(join(skillsRoot, 'academic-presentations/templates/beamer-talk.tex'), 'utf8');
    const code = tex.replace(/(^|[^\\])%.*$/gm, '$1');
    const stack: string[] = [];
    for (const match of code.matchAll(/\\(begin|end)\{([^}]+)\}/g)) {
      if (match[1] === 'begin') stack.push(match[2] ?? '');
      else expect(stack.pop(), `\\end{${match[2]}}`).toBe(match[2]);
    }
    expect(stack).toEqual([]);
    const braces = [...code.replace(/\\[{}]/g, '')].reduce((depth, c) => depth + (c === '{' ? 1 : c === '}' ? -1 : 0), 0);
    expect(braces).toBe(0);
  });

  it('the Marp deck has Marp front matter and more than one slide', () => {
    const deck = readFileSync(join(skillsRoot, 'academic-presentations/templates/marp-talk.md'), 'utf8');
    const { frontmatter, body } = splitSkill(deck);
    expect(parseDocument(frontmatter).toJS()).toMatchObject({ marp: true, paginate: true });
    expect(body.split(/^---$/m).length).toBeGreaterThan(5);
  });
});

function pythonWithMatplotlib(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    const probe = spawnSync(python, ['-c', 'import matplotlib, numpy'], { encoding: 'utf8' });
    if (probe.status === 0) return python;
  }
  return undefined;
}

const python = pythonWithMatplotlib();

describe.skipIf(!python)('scientific-plotting/scripts/plot_style.py', () => {
  if (!python) console.warn('skipping plot_style.py: no python3 with matplotlib and numpy on this machine');
  const work = python ? mkdtempSync(join(tmpdir(), 'skillgarden-plot-')) : '';
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('draws the example figure, byte for byte the same on a second run', async () => {
    const script = join(skillsRoot, 'scientific-plotting/scripts/plot_style.py');
    const outputs = await Promise.all(
      ['a', 'b'].map(async (run) => {
        const out = join(work, run);
        // Separate, cold matplotlib caches: the second run must not depend on the first.
        const env = { ...process.env, MPLCONFIGDIR: join(out, '.mpl') };
        const result = await execFileAsync(python ?? 'python3', [script, '--out', out, '--formats', 'svg,pdf'], { env });
        expect(result.stderr).toBe('');
        return ['svg', 'pdf'].map((ext) => readFileSync(join(out, `example_figure.${ext}`)));
      }),
    );
    const [first, second] = outputs;
    expect(first?.[0]?.length).toBeGreaterThan(10_000);
    expect(first?.[0]?.equals(second?.[0] ?? Buffer.alloc(0))).toBe(true);
    expect(first?.[1]?.equals(second?.[1] ?? Buffer.alloc(0))).toBe(true);
  });
});
