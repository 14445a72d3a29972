import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands/index.js';

describe('the lazy command table', () => {
  it('names each command once, and each row loads the command it names, with the summary the help shows', async () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    for (const entry of commands) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
  });
});
