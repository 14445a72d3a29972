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

export default tseslint.config(
  // Fixtures are data (some deliberately hostile), not our code.
  { ignores: ['lib/**', 'dist/**', 'node_modules/**', 'coverage/**', '.bench-out/**', 'test/fixtures/**', 'src/**/*.generated.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: impureModules.map((name) => ({ name, message: 'src/core is pure: move I/O to an adapter outside core.' })),
          patterns: [
            { group: ['@actions/*'], message: 'Only the Action entry imports @actions/*.' },
            {
              group: ['**/store/**', '**/ledger/**', '**/services/**', '**/cli/**', '**/action/**', '**/mcp/**'],
              message: 'Inner layers never import outer ones.',
            },
          ],
        },
      ],
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
