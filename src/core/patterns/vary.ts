import { splitShellWords } from './shape.js';

/**
 * The details of one step, with the arguments that vary across sessions made placeholders:
 * `npm version 2.4.0` and `npm version 2.5.0` are one step, `npm version <version>`; `kubectl --context qa`
 * and `--context prod` are `--context <context>`. Commands that differ in more than a couple of arguments
 * (or in their words' count) are different commands and stay apart.
 */
export function mergeVaryingDetails(counts: ReadonlyArray<[string, number]>): Array<[string, number]> {
  return groupVaryingDetails(counts).map((g): [string, number] => [g.detail, g.count]);
}

/** A step's details merged as mergeVaryingDetails merges them, with the details each merged one stands for. */
export interface DetailGroup {
  detail: string;
  count: number;
  members: string[];
}

export function groupVaryingDetails(counts: ReadonlyArray<[string, number]>): DetailGroup[] {
  const groups: { words: string[][]; members: string[][][]; keys: string[]; count: number }[] = [];
  for (const [detail, count] of counts) {
    const commands = detail.split(' && ').map((c) => splitShellWords(c));
    const group = groups.find((g) => mergeable(g.words, commands));
    if (group === undefined) groups.push({ words: commands, members: [commands], keys: [detail], count });
    else {
      group.members.push(commands);
      group.keys.push(detail);
      group.count += count;
    }
  }
  return groups
    .map((g): DetailGroup => ({ detail: render(g.members), count: g.count, members: g.keys }))
    .sort((a, b) => b.count - a.count || (a.detail < b.detail ? -1 : 1));
}

const maxVarying = 2;

function mergeable(a: readonly string[][], b: readonly string[][]): boolean {
  if (a.length !== b.length) return false;
  let varying = 0;
  for (let c = 0; c < a.length; c += 1) {
    const x = a[c]!;
    const y = b[c]!;
    // The same program and the same count of words: only arguments may differ, never the program.
    if (x.length !== y.length || x[0] !== y[0]) return false;
    for (let w = 1; w < x.length; w += 1) {
      if (x[w] === y[w]) continue;
      // A sub-command is what the step does (`git push`, `git pull`): never a placeholder.
      if (w === 1 && /^[a-z][a-z-]*$/.test(x[w]!) && /^[a-z][a-z-]*$/.test(y[w]!)) return false;
      if (++varying > maxVarying) return false;
    }
  }
  // Equal commands are one detail already; two with nothing in common but the program are not one step.
  return varying > 0 && a.some((x) => x.length > 2 || varying < x.length - 1);
}

function render(members: readonly string[][][]): string {
  const first = members[0]!;
  return first
    .map((words, c) =>
      words
        .map((word, w) => {
          const values = members.map((m) => m[c]![w]!);
          return values.every((v) => v === word) ? word : placeholder(words[w - 1], values);
        })
        .join(' '),
    )
    .join(' && ');
}

const shortFlags: Record<string, string> = {
  '-m': 'message',
  '-f': 'file',
  '-t': 'tag',
  '-n': 'name',
  '-o': 'output',
  '-b': 'branch',
  '-c': 'config',
  '-e': 'env',
  '-i': 'input',
  '-d': 'dir',
  '-C': 'dir',
  '-v': 'version',
};

/** What a varying argument is, as a reader would name it: after a flag, by the flag; else by what its values look like. */
function placeholder(previous: string | undefined, values: readonly string[]): string {
  const quote = values.every((v) => /^".*"$/.test(v)) ? '"' : values.every((v) => /^'.*'$/.test(v)) ? "'" : '';
  const inner = quote === '' ? values : values.map((v) => v.slice(1, -1));
  let name: string;
  if (inner.every((v) => /^v?\d+(?:\.\d+)+(?:[-+][\w.]+)?$|^(?:major|minor|patch|pre(?:major|minor|patch|release))$/.test(v)))
    name = 'version';
  else if (inner.every((v) => /[/\\]|\.\w{1,8}$/.test(v))) name = 'path';
  else if (previous !== undefined && /^--[a-z][\w-]*$/i.test(previous)) name = previous.slice(2);
  else if (previous !== undefined && shortFlags[previous] !== undefined) name = shortFlags[previous];
  else if (inner.every((v) => /^\d+$/.test(v))) name = 'number';
  else name = 'arg';
  return `${quote}<${name}>${quote}`;
}
