import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { detectRecordFormat } from '../../../src/store/transcripts/detect-format.js';

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../schemas/compact-transcript.schema.json', import.meta.url)), 'utf8'),
) as {
  examples: Record<string, unknown>[];
};
const validate = new Ajv2020.default({ strict: true, allowUnionTypes: true }).compile(schema);

describe('schemas/compact-transcript.schema.json', () => {
  it('accepts its examples, which the reader detects as compact lines', () => {
    for (const example of schema.examples) {
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(detectRecordFormat(example)).toBe('compact');
    }
  });

  it.each([[{ tool: 'Read' }], [{ session: 's' }], [{ session: '', tool: 'Read' }], [{ session: 's', tool: 'Read', args: [] }]])(
    'rejects %j',
    (line) => {
      expect(validate(line)).toBe(false);
    },
  );
});
