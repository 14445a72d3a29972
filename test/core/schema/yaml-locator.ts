import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { FieldPath, Position, SchemaCheckInput } from '../../../src/core/schema/index.js';

/**
 * Frontmatter YAML as a test would write it, parsed the way the SKILL.md
 * parser does: the data plus key and value positions. The text starts on line
 * 2 of the file (line 1 is the opening `---`).
 */
export function frontmatterInput(yaml: string, options: Pick<SchemaCheckInput, 'profile'> & { file?: string }): SchemaCheckInput {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter, uniqueKeys: false });
  const at = (offset: number): Position => {
    const { line, col } = lineCounter.linePos(offset);
    return { line: line + 1, column: col };
  };
  const nodeAt = (path: FieldPath): unknown => (path.length === 0 ? doc.contents : doc.getIn(path, true));
  return {
    file: options.file ?? 'skills/demo/SKILL.md',
    profile: options.profile,
    data: doc.toJS(),
    locateValue: (path) => {
      const node = nodeAt(path);
      return isNode(node) && node.range ? at(node.range[0]) : undefined;
    },
    locateKey: (path) => {
      const parent = nodeAt(path.slice(0, -1));
      const last = path[path.length - 1];
      if (isSeq(parent) && typeof last === 'number') {
        const item = parent.items[last];
        return isNode(item) && item.range ? at(item.range[0]) : undefined;
      }
      if (!isMap(parent)) return undefined;
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === String(last));
      return pair && isScalar(pair.key) && pair.key.range ? at(pair.key.range[0]) : undefined;
    },
  };
}
