import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// The pure core takes data and returns data: no file system, processes,
// network, environment or GitHub toolkit. This rule keeps it that way.
const impureModules = [
  'fs',
  'node:fs',
  'fs/promises',
  'node:fs/promises',
  'child_process',
  'node:child_process',
  'http',
  'node:http',
  'https',
  'node:https',
  'net',
  'node:net',
  'os',
  'node:os',
  'worker_threads',
  'node:worker_threads',
  'isomorphic-git',
  'simple-git',
];

// The outer layers, as a core file sees them: src/core's own folders share names with some of them (core/registry is
// the registry's pure part), so a pattern matches the path relative to the file's depth, not any folder of that name.
const outerLayers = ['store', 'ledger', 'registry', 'llm', 'services', 'cli', 'action', 'mcp'];
const coreImportRule = (up) => [
  'error',
  {
    paths: impureModules.map((name) => ({ name, message: 'src/core is pure: move I/O to an adapter outside core.' })),
    patterns: [
      { group: ['@actions/*'], message: 'Only the Action entry imports @actions/*.' },
      { group: ['@octokit/*'], message: 'GitHub is reached only through src/action/github-api.ts.' },
      { group: ['@modelcontextprotocol/*'], message: 'Only src/mcp speaks MCP.' },
      { group: outerLayers.flatMap((layer) => [`${up}${layer}`, `${up}${layer}/**`]), message: 'Inner layers never import outer ones.' },
    ],
  },
];

// The layers outside the core, inside out; each imports only the ones inside it (and the core), never one outside:
//   adapters  store (the file system), ledger (git), llm (an LLM endpoint): one module per outside system
//   services  services, registry: the work, each reaching an outside system through its adapter
//   edges     cli, action, mcp: read inputs, call a service, render its result
// store and ledger may import each other (both are the disk: the library, and the working tree git writes); llm is
// a network adapter and imports only the core. Edges never import an adapter: the service that owns the I/O does.
// Edges do not import each other either.
const forbiddenLayers = {
  store: ['llm', 'services', 'registry', 'cli', 'action', 'mcp'],
  ledger: ['llm', 'services', 'registry', 'cli', 'action', 'mcp'],
  llm: ['store', 'ledger', 'services', 'registry', 'cli', 'action', 'mcp'],
  services: ['cli', 'action', 'mcp'],
  registry: ['cli', 'action', 'mcp'],
  cli: ['store', 'ledger', 'llm', 'action', 'mcp'],
  action: ['store', 'ledger', 'llm', 'cli', 'mcp'],
  mcp: ['store', 'ledger', 'llm', 'cli', 'action'],
};
const adapters = new Set(['store', 'ledger', 'llm']);
// Outside systems reached through one folder each.
const toolkits = [
  { group: ['@actions/*'], home: 'action', message: 'Only the Action (src/action) imports @actions/*.' },
  { group: ['@octokit/*'], home: 'action', message: 'GitHub is reached only through src/action/github-api.ts.' },
  { group: ['@modelcontextprotocol/*'], home: 'mcp', message: 'Only src/mcp speaks MCP.' },
];
const layerImportRule = (layer, up) => [
  'error',
  {
    patterns: [
      ...toolkits.filter((t) => t.home !== layer).map(({ group, message }) => ({ group, message })),
      ...forbiddenLayers[layer].map((other) => ({
        group: [`${up}${other}`, `${up}${other}/**`],
        message: adapters.has(other)
          ? `src/${layer} does not import the ${other} adapter: call a service that does.`
          : `src/${layer} does not import src/${other}: inner layers never import outer ones, edges not each other.`,
      })),
    ],
  },
];
const layerConfigs = Object.keys(forbiddenLayers).flatMap((layer) => [
  { files: [`src/${layer}/*.ts`], rules: { 'no-restricted-imports': layerImportRule(layer, '../') } },
  { files: [`src/${layer}/*/**/*.ts`], rules: { 'no-restricted-imports': layerImportRule(layer, '../../') } },
]);

export default tseslint.config(
  // Fixtures are data (some deliberately hostile), not our code.
  { ignores: ['lib/**', 'dist/**', 'node_modules/**', 'coverage/**', '.bench-out/**', 'test/fixtures/**', 'src/**/*.generated.ts'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    // One program for src, test, bench and scripts (tsconfig.json includes them all); the JS config files
    // outside it get a default project.
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    rules: {
      // The Ledger, the usage store and the fs adapters are Promise-returning interfaces, some implemented with
      // synchronous calls: an async body still turns a throw into a rejection, which is what their callers handle.
      '@typescript-eslint/require-await': 'off',
      // `string | 'conflict'` names a sentinel in the signature; the type cannot tell it apart, the reader can.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests parse the CLI's and the servers' JSON output and check its shape with expect, which fails loudly on a
    // wrong shape; typing each parsed document would restate the schemas the tests check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  ...layerConfigs,
  {
    // No import cycles in src: a module's dependencies load before it, and the layers above stay a tree of folders.
    // Type-only imports do not count (they vanish at run time). Paths are resolved as TypeScript's ESM does (`.js` → `.ts`).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  { files: ['src/core/*.ts'], rules: { 'no-restricted-imports': coreImportRule('../') } },
  { files: ['src/core/*/**/*.ts'], rules: { 'no-restricted-imports': coreImportRule('../../') } },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'src/core is pure: pass what you need from process in as data.' },
        { name: 'fetch', message: 'src/core is pure: no network.' },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'src/core has no clock: pass `now` in.' },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'src/core has no clock: pass `now` in.',
        },
        { selector: "MemberExpression[object.name='console']", message: 'src/core does not print: return data.' },
      ],
    },
  },
);
