import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A clone has nothing beside it: every relative link in the project's own documents must resolve inside the repository.
const root = fileURLToPath(new URL('..', import.meta.url));
const docs = ['README.md', 'ARCHITECTURE.md', 'BENCHMARKS.md', ...readdirSync(join(root, 'docs')).map((name) => `docs/${name}`)].filter(
  (file) => file.endsWith('.md'),
);

/** Link targets outside fenced code and inline code spans. */
function relativeTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map((m) => m[1] ?? '')
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//') && !target.startsWith('#'));
}

describe('the documents link only inside the repository', () => {
  it.each(docs)('%s', (file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const bad = relativeTargets(text).flatMap((target) => {
      const resolved = resolve(dirname(join(root, file)), decodeURIComponent(target.split('#')[0] ?? ''));
      const inside = !relative(root, resolved).startsWith('..') && !relative(root, resolved).startsWith(sep);
      return inside && existsSync(resolved) ? [] : [target];
    });
    expect(bad).toEqual([]);
    expect(text).not.toMatch(/\.\.\/shared\/DESIGN\.md/);
  });
});
