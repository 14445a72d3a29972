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
