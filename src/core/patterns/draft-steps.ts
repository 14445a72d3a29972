import { describeTool } from './describe-tools.js';
import { isGenericToken } from './generic.js';
import { commandName } from './shape.js';
import type { DraftEnding } from './types.js';

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

const verbs: Record<string, string> = {
  'read files': 'Read',
  'change files': 'Edit',
  'find files or code': 'Search',
  'plan the work': 'Plan',
  'finish the task': 'Finish',
};

function fileStep(tool: string, details: readonly string[]): string {
  const verb = verbs[describeTool(tool)] ?? 'Call';
  const parts = details.flatMap((d) => d.split(' ')).filter((p) => p !== '&&');
  const kinds = [...new Set(parts.filter((p) => !/^[a-z_]+$/.test(p)))].slice(0, 2);
  const commands = [...new Set(parts.filter((p) => /^[a-z_]+$/.test(p)))].slice(0, 2);
  const what = kinds.length > 0 ? ` the ${kinds.map(code).join(' and ')} files` : '';
  const how = commands.length > 0 ? ` (${commands.map(code).join(', ')})` : '';
  return verb === 'Call' ? `Call ${code(tool)}${what}${how}` : `${verb}${what} with ${code(tool)}${how}`;
}

const doneClauses: Record<DraftEnding, string> = {
  tests: 'until the tests pass',
  commit: 'and commit the change',
  release: 'and publish the release',
  submit: 'and submit the result',
};

/**
 * One step per token, with the arguments that recur there: the commands run
 * (`Run \`npm test -- --run\``), the kinds of file changed, the sub-commands used.
 */
export function renderSteps(
  tools: readonly string[],
  details: ReadonlyArray<ReadonlyArray<[string, number]>>,
  ending?: DraftEnding,
): string[] {
  const seen = new Set<string>();
  // A closing `finish` is not what the tests or the release were: the clause goes to the step before it.
  const last = tools.length - (ending !== 'submit' && tools.length > 1 && /submit|finish/i.test(tools[tools.length - 1] ?? '') ? 2 : 1);
  return tools.map((token, i) => {
    const top = (details[i] ?? []).slice(0, 3).map(([d]) => d);
    const colon = token.indexOf(':');
    let text: string;
    if (colon >= 0) {
      const [first, ...others] = top.length > 0 ? top : [`${token.slice(colon + 1)} …`];
      const commands = (first as string).split(' && ');
      const again = seen.has(first as string) ? ' again' : '';
      text = `Run ${commands.map(code).join(', then ')}${again} with ${code(token.slice(0, colon))}${others.length > 0 ? ` (or ${others.map((o) => o.split(' && ').map(code).join(' then ')).join('; ')})` : ''}`;
      seen.add(first as string);
    } else text = fileStep(token, top);
    if (i === last && ending !== undefined) text += `, ${doneClauses[ending]}`;
    return `${i + 1}. ${text}.`;
  });
}

/** A short clause naming the concrete commands of the procedure, for the description. */
export function summarizeSteps(tools: readonly string[], details: ReadonlyArray<ReadonlyArray<[string, number]>>): string {
  const parts: string[] = [];
  tools.forEach((token, i) => {
    const top = details[i]?.[0]?.[0];
    const colon = token.indexOf(':');
    const kind = top?.split(' ').find((p) => p.startsWith('*.'));
    let part: string | undefined;
    // The description names commands, not their arguments: shell syntax belongs in the steps' code spans.
    if (colon >= 0) part = `run ${[...new Set((top ?? token.slice(colon + 1)).split(' && ').map(commandName))].map(code).join(', ')}`;
    else if (kind !== undefined) part = `${(verbs[describeTool(token)] ?? 'use').toLowerCase()} the ${code(kind)} files`;
    // Searching without a file kind and finishing say nothing a reader needs in a description.
    else if (!isGenericToken(token)) part = `use ${code(token)}`;
    if (part !== undefined && !parts.includes(part)) parts.push(part);
  });
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function renderDoneWhen(ending: DraftEnding | undefined, lastDetail: string | undefined): string | undefined {
  switch (ending) {
    case 'tests':
      return `The test command${lastDetail ? ` (${code(lastDetail)})` : ''} passes.`;
    case 'commit':
      return 'The change is committed, with a message that says what it does.';
    case 'release':
      return `The release is out${lastDetail ? ` (${code(lastDetail)})` : ''}.`;
    case 'submit':
      return 'The result is submitted.';
    default:
      return undefined;
  }
}

export { doneClauses };
