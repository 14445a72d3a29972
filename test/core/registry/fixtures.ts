import type { RegistryEntry } from '../../../src/core/registry/index.js';

export function entry(name: string, extra: Partial<RegistryEntry> = {}): RegistryEntry {
  return {
    name,
    alias: undefined,
    category: undefined,
    dir: `/lib/skills/${name}`,
    relativeDir: name,
    description: `Does ${name} things.`,
    whenToUse: undefined,
    argumentHint: undefined,
    userInvocable: true,
    modelInvocable: true,
    pinned: false,
    context: 'inline',
    allowedTools: [],
    model: undefined,
    agent: undefined,
    effort: undefined,
    maxSteps: undefined,
    paths: [],
    body: `# ${name}\n`,
    findings: [],
    ...extra,
  };
}
