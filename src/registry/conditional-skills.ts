import { isAbsolute, relative, sep } from 'node:path';
import { compilePathMatcher, normalizeTouchedPath, type PathMatcher } from '../core/registry/path-match.js';
import type { RegistryEntry } from '../core/registry/types.js';

/**
 * Skills with `paths` globs start dormant and wake when the agent touches a
 * matching file (paths relative to the project root; absolute paths inside
 * it are made relative, paths outside it match nothing).
 */
export class ConditionalSkills {
  readonly awake = new Set<string>();
  private readonly matchers = new Map<string, { globs: string; test: PathMatcher }>();

  constructor(private readonly projectRoot: string) {}

  matching(entries: Iterable<RegistryEntry>, paths: readonly string[]): string[] {
    const touched = paths.map((p) => this.toProjectPath(p)).filter((p): p is string => p !== undefined);
    const names: string[] = [];
    for (const entry of entries) {
      if (entry.paths.length > 0 && touched.some(this.matcherOf(entry))) names.push(entry.name);
    }
    return names.sort();
  }

  /** Wakes the named skills; returns those that were dormant. */
  wake(names: readonly string[]): string[] {
    const woken = names.filter((name) => !this.awake.has(name));
    for (const name of woken) this.awake.add(name);
    return woken;
  }

  forget(names: readonly string[]): void {
    for (const name of names) {
      this.awake.delete(name);
      this.matchers.delete(name);
    }
  }

  isAwake(entry: RegistryEntry): boolean {
    return entry.paths.length === 0 || this.awake.has(entry.name);
  }

  private matcherOf(entry: RegistryEntry): PathMatcher {
    const globs = entry.paths.join('\n');
    const cached = this.matchers.get(entry.name);
    if (cached?.globs === globs) return cached.test;
    const test = compilePathMatcher(entry.paths);
    this.matchers.set(entry.name, { globs, test });
    return test;
  }

  private toProjectPath(path: string): string | undefined {
    if (!isAbsolute(path)) return normalizeTouchedPath(path);
    const rel = relative(this.projectRoot, path);
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : normalizeTouchedPath(rel.split(sep).join('/'));
  }
}
