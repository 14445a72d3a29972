import { describe, expect, it } from 'vitest';
import { checkSchema, type ProfileName } from '../../../src/core/schema/index.js';
import { frontmatterInput } from './yaml-locator.js';

type Expectation = readonly string[];
const ok: Expectation = [];
const unknownError: Expectation = ['error schema/unknown-key'];
const unknownWarning: Expectation = ['warning schema/unknown-key'];
const typeError: Expectation = ['error schema/type'];
const enumError: Expectation = ['error schema/enum'];

interface FieldCase {
  yaml: string;
  portable: Expectation;
  spec: Expectation;
  'claude-code': Expectation;
  hermes: Expectation;
}

const all = (expectation: Expectation) => ({ portable: expectation, spec: expectation, 'claude-code': expectation, hermes: expectation });
/** A field every dialect but the spec knows: unknown under spec only. */
const notSpec = (expectation: Expectation) => ({
  portable: expectation,
  spec: unknownError,
  'claude-code': expectation,
  hermes: expectation,
});
/** A Claude Code field: known in portable and claude-code. */
const claudeCode = (expectation: Expectation, portable = expectation) => ({
  portable,
  spec: unknownError,
  'claude-code': expectation,
  hermes: unknownWarning,
});
/** A Hermes Agent field: known in portable and hermes. */
const hermes = (expectation: Expectation) => ({
  portable: expectation,
  spec: unknownError,
  'claude-code': unknownWarning,
  hermes: expectation,
});
/** A skillgarden runtime field: known in portable only. */
const runtime = (expectation: Expectation) => ({
  portable: expectation,
  spec: unknownError,
  'claude-code': unknownWarning,
  hermes: unknownWarning,
});

const cases: FieldCase[] = [
  // Agent Skills spec
  { yaml: 'license: MIT', ...all(ok) },
  { yaml: 'license: 5', ...all(typeError) },
  { yaml: 'compatibility: Requires git and network access', ...all(ok) },
  { yaml: 'compatibility: [git]', ...all(typeError) },
  { yaml: 'metadata: {author: ada, version: "1.0"}', ...all(ok) },
  { yaml: 'metadata: {version: 1.0}', ...all(ok), spec: typeError },
  { yaml: 'metadata: {tags: [a, b]}', ...all(ok), spec: typeError },
  { yaml: 'metadata: just text', ...all(typeError) },
  { yaml: 'allowed-tools: Bash Read Grep', ...all(ok) },
  { yaml: 'allowed-tools: [Bash, Read]', ...all(ok), spec: typeError },
  { yaml: 'allowed-tools: [Bash, 5]', ...all(typeError) },
  { yaml: 'allowed-tools: 5', ...all(typeError) },
  // Claude Code
  { yaml: 'when_to_use: When the user asks for a deploy', ...claudeCode(ok) },
  { yaml: 'argument-hint: "[issue-number]"', ...claudeCode(ok) },
  { yaml: 'argument-hint: [issue-number]', ...claudeCode(typeError) },
  { yaml: 'arguments: [issue, branch]', ...claudeCode(ok) },
  { yaml: 'arguments: issue branch', ...claudeCode(ok) },
  { yaml: 'disable-model-invocation: true', ...claudeCode(ok) },
  { yaml: 'disable-model-invocation: "yes"', ...claudeCode(typeError) },
  { yaml: 'user-invocable: false', ...claudeCode(ok) },
  { yaml: 'disallowed-tools: [Edit, Write]', ...claudeCode(ok) },
  { yaml: 'model: sonnet', ...claudeCode(ok) },
  { yaml: 'model: 4', ...claudeCode(typeError) },
  { yaml: 'effort: xhigh', ...claudeCode(ok) },
  { yaml: 'effort: extreme', ...claudeCode(enumError) },
  { yaml: 'context: fork', ...claudeCode(ok) },
  { yaml: 'context: inline', ...claudeCode(enumError, ok) },
  { yaml: 'agent: Explore', ...claudeCode(ok) },
  { yaml: 'hooks: {PreToolUse: [{matcher: Bash, hooks: [{type: command, command: ./check.sh, timeout: 10}]}]}', ...claudeCode(ok) },
  { yaml: 'hooks: {PreToolUse: [{matcher: Bash}]}', ...claudeCode(['error schema/required']) },
  { yaml: 'hooks: [PreToolUse]', ...claudeCode(typeError) },
  { yaml: 'paths: "src/**/*.ts"', ...claudeCode(ok) },
  { yaml: 'paths: ["src/**/*.ts", "*.md"]', ...claudeCode(ok) },
  { yaml: 'paths: [1]', ...claudeCode(typeError) },
  { yaml: 'shell: powershell', ...claudeCode(ok) },
  { yaml: 'shell: zsh', ...claudeCode(enumError) },
  // Hermes Agent
  { yaml: 'version: 1.0.0', ...hermes(ok), 'claude-code': unknownWarning },
  { yaml: 'version: 1.0', ...hermes(typeError) },
  { yaml: 'version: "1.0"', ...hermes(['error schema/pattern']) },
  { yaml: 'author: Ada Lovelace', ...hermes(ok) },
  { yaml: 'author: [ada, grace]', ...hermes(ok) },
  { yaml: 'platforms: [macos, linux, windows]', ...hermes(ok) },
  { yaml: 'platforms: [beos]', ...hermes(enumError) },
  { yaml: 'platforms: macos', ...hermes(typeError) },
  { yaml: 'environments: [kanban]', ...hermes(ok) },
  { yaml: 'prerequisites: {env_vars: [NOTION_API_KEY], commands: [curl]}', ...hermes(ok) },
  { yaml: 'prerequisites: {commands: 5}', ...hermes(typeError) },
  {
    yaml: 'required_environment_variables: [{name: API_KEY, prompt: Key, help: "https://x", required_for: api, optional: true}]',
    ...hermes(ok),
  },
  { yaml: 'required_environment_variables: [API_KEY]', ...hermes(ok) },
  { yaml: 'required_environment_variables: [5]', ...hermes(typeError) },
  { yaml: 'required_credential_files: [{path: google_token.json, description: token}]', ...hermes(ok) },
  { yaml: 'required_credential_files: [{description: token}]', ...hermes(['error schema/required']) },
  { yaml: 'setup: {help: Run setup.sh, collect_secrets: [{env_var: TOKEN, prompt: Token, secret: true}]}', ...hermes(ok) },
  { yaml: 'setup: {collect_secrets: [{prompt: Token}]}', ...hermes(['error schema/required']) },
  { yaml: 'tags: [a, b]', ...hermes(ok) },
  { yaml: 'related_skills: [arxiv]', ...hermes(ok) },
  { yaml: 'dependencies: [numpy]', ...hermes(ok) },
  { yaml: 'deps: [ffmpeg]', ...hermes(ok) },
  { yaml: 'triggers: [write a song]', ...hermes(ok) },
  // Informational, read by no client: Hermes writes text, ComposioHQ's collection a map (832 false errors there before).
  { yaml: 'requires: Blender 4.3+', ...hermes(ok) },
  { yaml: 'requires: {mcp: [rube]}', ...hermes(ok) },
  {
    yaml: 'metadata: {hermes: {tags: [a], related_skills: [b], requires_toolsets: [web], fallback_for_tools: [browser_navigate]}}',
    ...all(ok),
    spec: typeError,
  },
  { yaml: 'metadata: {hermes: {config: [{key: my.path, description: Where, default: "~/x"}]}}', ...all(ok), spec: typeError },
  { yaml: 'metadata: {hermes: {blueprint: {schedule: "0 9 * * *", no_agent: false}}}', ...all(ok), spec: typeError },
  { yaml: 'metadata: {hermes: {tagz: [a]}}', ...all(unknownWarning), spec: typeError },
  { yaml: 'metadata: {hermes: {tags: [1]}}', ...all(typeError) },
  // skillgarden runtime
  { yaml: 'pinned: true', ...runtime(ok) },
  { yaml: 'pinned: "yes"', ...runtime(typeError) },
  { yaml: 'max-steps: 12', ...runtime(ok) },
  { yaml: 'max-steps: 0', ...runtime(['error schema/minimum']) },
  { yaml: 'max-steps: 2.5', ...runtime(typeError) },
  { yaml: 'effort: high', ...claudeCode(ok) },
  // keys no dialect defines
  { yaml: 'type: technique', ...notSpec(unknownWarning) },
  { yaml: 'allowed_tools: Bash', ...notSpec(unknownWarning) },
];

const profiles = ['portable', 'spec', 'claude-code', 'hermes'] as const;
const codes = (yaml: string, profile: ProfileName): string[] =>
  checkSchema(frontmatterInput(yaml, { profile })).map((f) => `${f.severity} ${f.code}`);

describe('checkSchema: each field of each dialect, per profile', () => {
  for (const testCase of cases) {
    it.each(profiles)(`${testCase.yaml} under %s`, (profile) => {
      expect(codes(`name: demo\ndescription: A demo skill.\n${testCase.yaml}\n`, profile)).toEqual(testCase[profile]);
    });
  }
});

describe('checkSchema: name and description', () => {
  const table: [string, string[]][] = [
    ['description: No name here.', ['error schema/required']],
    ['name: demo', ['error schema/required']],
    ['name: Here.Now\ndescription: d', ['error schema/pattern']],
    ['name: -demo\ndescription: d', ['error schema/pattern']],
    ['name: de--mo\ndescription: d', ['error schema/pattern']],
    ['name: 42\ndescription: d', ['error schema/type']],
    ['name: demo\ndescription: ""', ['error schema/min-length']],
    ['name: demo\ndescription: [a, b]', ['error schema/type']],
    ['{}', ['error schema/required', 'error schema/required']],
  ];
  it.each(table)('%j', (yaml, expected) => {
    for (const profile of profiles) expect(codes(yaml, profile)).toEqual(expected);
  });
});
