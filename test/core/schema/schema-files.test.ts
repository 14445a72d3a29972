import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import reportSchema from '../../../schemas/validate-report.schema.json' with { type: 'json' };
import { checkSchema, knownFields, profileNames, skillSchema } from '../../../src/core/schema/index.js';
import { compileProfile } from '../../../src/core/schema/compile-profile.js';
import type { SchemaNode } from '../../../src/core/schema/skill-schema.js';
import { frontmatterInput } from './yaml-locator.js';

const resolve = (node: SchemaNode): SchemaNode =>
  node.$ref?.startsWith('#/$defs/') ? (skillSchema.$defs[node.$ref.slice(8)] ?? node) : node;

/** Every property schema in the file, with the path an editor would show it under. */
function collectProperties(node: SchemaNode, at: string, out: [string, SchemaNode][]): void {
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    out.push([`${at}.${key}`, child]);
    collectProperties(resolve(child), `${at}.${key}`, out);
  }
  for (const child of [node.items, node.additionalProperties, ...(node.anyOf ?? [])]) {
    if (child !== undefined && typeof child === 'object') collectProperties(resolve(child), at, out);
  }
}

describe('schemas/skill.schema.json', () => {
  it('is a JSON Schema 2020-12 document with an id, a title and a description', () => {
    expect(skillSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(skillSchema.$id).toMatch(/^https:\/\/.+\/skill\.schema\.json$/);
    expect(skillSchema.title).toBeTruthy();
    expect(skillSchema.description).toBeTruthy();
  });

  it('describes every property, so an editor can show it', () => {
    const properties: [string, SchemaNode][] = [];
    for (const [name, def] of Object.entries(skillSchema.$defs)) collectProperties(def, name, properties);
    expect(properties.length).toBeGreaterThan(100);
    const undescribed = properties.filter(([, node]) => !(node.description ?? resolve(node).description)).map(([path]) => path);
    expect(undescribed).toEqual([]);
    for (const [name, def] of Object.entries(skillSchema.$defs)) expect(def.description, name).toBeTruthy();
  });

  it('gives the spec profile exactly the Agent Skills fields', () => {
    expect([...knownFields('spec')].sort()).toEqual(['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name']);
  });

  it('knows in the portable profile every key any other profile knows', () => {
    for (const profile of profileNames) {
      for (const key of knownFields(profile)) expect(knownFields('portable').has(key), `${profile}: ${key}`).toBe(true);
    }
    expect(knownFields('claude-code').has('hooks')).toBe(true);
    expect(knownFields('hermes').has('platforms')).toBe(true);
    expect(knownFields('hermes').has('hooks')).toBe(false);
  });

  it('compiles each profile once and reuses it', () => {
    for (const profile of profileNames) expect(compileProfile(profile)).toBe(compileProfile(profile));
    expect(compileProfile('spec')).not.toBe(compileProfile('portable'));
  });

  it('as a whole document, validates like the portable profile (what editors use)', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const validate = ajv.compile(skillSchema);
    expect(validate({ name: 'demo', description: 'd', pinned: true, platforms: ['linux'], hooks: {} })).toBe(true);
    expect(validate({ name: 'demo', description: 'd', nonsense: 1 })).toBe(false);
    expect(validate({ description: 'd' })).toBe(false);
  });
});

describe('frontmatter keys that name Object.prototype members', () => {
  it('are ordinary unknown keys and satisfy nothing', () => {
    const input = frontmatterInput('__proto__: {name: evil, description: evil}\nconstructor: x\n', { profile: 'portable' });
    const findings = checkSchema(input);
    expect(findings.map((f) => f.code).sort()).toEqual(['schema/required', 'schema/required', 'schema/unknown-key', 'schema/unknown-key']);
    expect(({} as Record<string, unknown>).name).toBeUndefined();
  });

  it('are safe when built in JS with a polluted-looking own property', () => {
    const data = JSON.parse('{"__proto__": {"name": "evil"}, "description": "d"}') as unknown;
    const findings = checkSchema({ file: 'f', data, profile: 'spec', locateKey: () => undefined, locateValue: () => undefined });
    expect(findings.map((f) => f.code).sort()).toEqual(['schema/required', 'schema/unknown-key']);
  });
});

describe('schemas/validate-report.schema.json', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(reportSchema);

  it('accepts a report built from real findings', () => {
    const findings = checkSchema(frontmatterInput('name: Bad.Name\ndescription: d\nfoo: 1\n', { profile: 'portable' }));
    const report = { skills: 1, profile: 'portable', errors: 1, warnings: 1, findings };
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it('rejects reports that break the contract', () => {
    const good = { code: 'schema/type', severity: 'error', file: 'a/SKILL.md', line: 3, column: 1, message: 'm', hint: 'h' };
    expect(validate({ skills: 1, findings: [good] })).toBe(true);
    expect(validate({ findings: [] })).toBe(false);
    expect(validate({ skills: 1, findings: [{ ...good, severity: 'fatal' }] })).toBe(false);
    expect(validate({ skills: 1, findings: [{ ...good, line: -1 }] })).toBe(false);
    const { hint: _hint, ...withoutHint } = good;
    expect(validate({ skills: 1, findings: [withoutHint] })).toBe(false);
  });
});
