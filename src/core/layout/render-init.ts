import type { LibraryLayout } from './skill-roots.js';

/** What `skillgarden init` found, for a person to read. */
export function renderDetected(layout: LibraryLayout, counts: { skills: number; archived: number; problems: number }): string {
  const lines = ['skill roots:'];
  for (const root of layout.roots) lines.push(`  ${root.path || '.'}/  (${root.origin}${root.via ? `: ${root.via}` : ''})`);
  if (layout.roots.length === 0) lines.push('  (none)');
  if (layout.listed.length > 0) lines.push(`skills listed by manifests: ${layout.listed.length}`);
  if (layout.manifests.length > 0) lines.push(`manifests: ${layout.manifests.join(', ')}`);
  lines.push(`${counts.skills} skill(s), ${counts.archived} archived, ${counts.problems} layout problem(s)`);
  return `${lines.join('\n')}\n`;
}

/**
 * The config `init` writes. Roots that manifests define stay detected (the
 * manifests are read on every run, so the config never goes stale); plain
 * folders are written out so the layout is explicit.
 */
export function renderInitConfig(layout: LibraryLayout): string {
  const fromManifests = layout.manifests.length > 0 || layout.listed.length > 0;
  const roots = layout.roots.map((r) => r.path || '.');
  const header = ['# skillgarden settings (schemas/config.schema.json); every key is optional.', '# Written by `skillgarden init`.'];
  if (fromManifests) {
    return `${[
      ...header,
      `# The skill roots come from ${layout.manifests.join(', ')}: left unset, they are read from the manifests on every run.`,
      `# Detected: ${roots.join(', ') || '(none)'}${layout.listed.length ? ` and ${layout.listed.length} listed skill(s)` : ''}.`,
      '# skills_dir: ["skills", "plugins/*/skills"]',
      'profile: portable',
    ].join('\n')}\n`;
  }
  const value = roots.length === 1 ? JSON.stringify(roots[0]) : `[${roots.map((r) => JSON.stringify(r)).join(', ')}]`;
  return `${[...header, `skills_dir: ${roots.length === 0 ? '"skills"' : value}`, 'profile: portable'].join('\n')}\n`;
}

/** The two workflows that run the Action: validate on pull requests, curate weekly (DESIGN §10). */
export function renderWorkflows(layout: LibraryLayout, action: string): { path: string; content: string }[] {
  const paths = [
    ...new Set([...layout.roots.map((r) => (r.path ? `${r.path}/**` : '**/SKILL.md')), ...layout.manifests, '.skillgarden/**']),
  ];
  const validate = [
    'name: Validate skills',
    'on:',
    '  pull_request:',
    '    paths:',
    ...paths.map((p) => `      - '${p}'`),
    'permissions:',
    '  contents: read',
    'jobs:',
    '  validate:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    `      - uses: ${action}`,
    '        with:',
    '          mode: validate',
    '          changed-only: true',
  ];
  const curate = [
    'name: Curate skills',
    'on:',
    '  schedule:',
    "    - cron: '17 3 * * 1'",
    '  workflow_dispatch:',
    'permissions:',
    '  contents: write',
    '  pull-requests: write',
    'concurrency:',
    '  group: skillgarden-curate',
    '  cancel-in-progress: false',
    'jobs:',
    '  curate:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '        with:',
    '          fetch-depth: 0',
    `      - uses: ${action}`,
    '        with:',
    '          mode: curate',
  ];
  return [
    { path: '.github/workflows/skillgarden-validate.yml', content: `${validate.join('\n')}\n` },
    { path: '.github/workflows/skillgarden-curate.yml', content: `${curate.join('\n')}\n` },
  ];
}
