import picomatch from 'picomatch';
import { excerpt, finding, type Finding } from '../findings.js';
import { readPathGlobs } from '../skill/path-list.js';
import type { Rule } from './types.js';

/** Compiles a glob as the registry will; returns the compile error's message, if any. */
export function globError(glob: string): string | undefined {
  try {
    picomatch.makeRe(glob, { strictBrackets: true, dot: true });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export const pathsCompile: Rule = {
  id: 'skill/bad-glob',
  check(context) {
    const findings: Finding[] = [];
    for (const { glob, index } of readPathGlobs(context.skill.fields.paths)) {
      const error = globError(glob);
      if (error === undefined) continue;
      const position = (index === undefined ? undefined : context.skill.locateValue(['paths', index])) ??
        context.skill.locateValue(['paths']) ?? { line: 1, column: 1 };
      findings.push(
        finding({
          code: 'skill/bad-glob',
          severity: 'error',
          file: context.skill.file,
          ...position,
          message: `paths glob "${excerpt(glob)}" does not compile: ${error}`,
          hint: 'Fix the glob (e.g. "src/**/*.ts", "docs/*.{md,mdx}"); escape literal brackets with a backslash.',
        }),
      );
    }
    return findings;
  },
};
