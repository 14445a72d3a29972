import { describe, expect, it } from 'vitest';
import { suggestRoots } from '../../../src/core/layout/suggest-roots.js';

describe('where skills sit when no known layout holds them', () => {
  it('a root of categories two deep below the top (davila7/claude-code-templates shape)', () => {
    const dirs = [
      'cli-tool/components/skills/development/code-review',
      'cli-tool/components/skills/development/tdd',
      'cli-tool/components/skills/scientific/plotting',
      'docs/examples/one-skill',
      // nested skills under a skill of the library: not a root of their own
      'cli-tool/components/skills/creative-design/game-development/godot',
      'cli-tool/components/skills/creative-design/game-development/unity',
    ];
    expect(suggestRoots(dirs)).toEqual([
      { root: 'cli-tool/components/skills', skills: 3 },
      { root: 'docs/examples', skills: 1 },
    ]);
  });

  it('a flat folder of skills is its own root; skills at the top give the repository root', () => {
    expect(suggestRoots(['agents/skills/a', 'agents/skills/b'])).toEqual([{ root: 'agents/skills', skills: 2 }]);
    expect(suggestRoots(['a', 'b'])).toEqual([{ root: '', skills: 2 }]);
  });
});
