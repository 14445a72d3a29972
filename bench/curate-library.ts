/** The library both curator benches run on: agent-created skills with usage from 100 writers. */
import { execFileSync } from 'node:child_process';

const day = 86_400;

/**
 * One commit per agent-created skill (with trailers), then one commit with 100 writers' usage files: via git fast-import.
 * `recent`: every skill used within the last 20 days, so a pass has nothing to do.
 */
export function generateLibrary(dir: string, count: number, now: Date, recent = false): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  const chunks: string[] = [];
  const start = Math.floor(now.getTime() / 1000) - 200 * day;
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  for (let i = 0; i < count; i++) {
    const name = `skill-${i}`;
    const message = `skill(create): ${name} — create\n\nSkill-Action: create\nSkill-Name: ${name}\nSkill-Actor: agent\nSkill-Source: background\n`;
    const body = `---\nname: ${name}\ndescription: Generated skill ${i}. Use when benchmarking.\n---\n# ${name}\n\n1. Do the thing.\n`;
    const when = start + Math.floor((i / count) * 190 * day);
    chunks.push(
      `commit refs/heads/main\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${when} +0000\n${data(message)}${i > 0 ? `from :${i}\n` : ''}M 100644 inline skills/${name}/SKILL.md\n${data(body)}`,
    );
  }
  const usageLines: string[] = [];
  for (let w = 0; w < 100; w++) {
    const skills: Record<string, unknown> = {};
    for (let i = w; i < count; i += recent ? 100 : 20)
      skills[`skill-${i}`] = {
        use_count: 1 + (i % 5),
        last_used_at: new Date(now.getTime() - ((i * 7 + w) % (recent ? 20 : 150)) * day * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
    usageLines.push(
      `M 100644 inline .skillgarden/usage/writer-${w}.json\n${data(JSON.stringify({ version: 1, writer: `writer-${w}`, skills }))}`,
    );
  }
  chunks.push(
    `commit refs/heads/main\nmark :${count + 1}\ncommitter Bench <bench@example.com> ${start + 195 * day} +0000\n${data('usage from 100 writers\n')}from :${count}\n${usageLines.join('')}`,
  );
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: chunks.join('') });
  execFileSync('git', ['reset', '-q', '--hard'], { cwd: dir });
}
