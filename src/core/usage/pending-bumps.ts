import type { UsageKind } from './types.js';

/** One use, view or patch of a skill, recorded by a writer before `usage flush` commits it. */
export interface UsageBump {
  skill: string;
  kind: UsageKind;
  at: string;
}

/** One JSON line of a writer's pending file. */
export function serializePendingBump(bump: UsageBump): string {
  return `${JSON.stringify({ skill: bump.skill, kind: bump.kind, at: bump.at })}\n`;
}

/** The bumps of a pending file (JSON lines); a line torn by a crash, or anything else, is skipped, never an error. */
export function parsePendingBumps(text: string): UsageBump[] {
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      const value = JSON.parse(line) as Partial<UsageBump> | null;
      if (
        typeof value?.skill === 'string' &&
        (value.kind === 'use' || value.kind === 'view' || value.kind === 'patch') &&
        typeof value.at === 'string' &&
        !Number.isNaN(Date.parse(value.at))
      ) {
        return [{ skill: value.skill, kind: value.kind, at: value.at }];
      }
      return [];
    } catch {
      return [];
    }
  });
}
