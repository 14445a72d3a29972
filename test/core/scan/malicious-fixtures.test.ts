import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanReport } from '../../../src/core/scan/report.js';
import { runScan } from '../../../src/services/scan.js';

const fixtures = fileURLToPath(new URL('../../fixtures/malicious', import.meta.url));

/** [skill-relative file, line, rule, how it is seen]: each evasion must be caught on its own line. */
const expected: Array<[string, number, string, string]> = [
  ['exfil-notes/SKILL.md', 9, 'exfil-markdown-image', 'raw'],
  ['exfil-notes/SKILL.md', 14, 'exfil-env-dump-pipe', 'raw'],
  ['exfil-notes/SKILL.md', 15, 'exfil-dns', 'raw'],
  ['exfil-notes/SKILL.md', 15, 'exfil-private-key-read', 'raw'],
  ['exfil-notes/SKILL.md', 16, 'exfil-credential-store-network', 'raw'],
  ['exfil-notes/SKILL.md', 19, 'exfil-conversation', 'raw'],
  ['helpful-formatter/SKILL.md', 9, 'inject-hidden-comment', 'raw'],
  ['helpful-formatter/SKILL.md', 10, 'inject-ignore-instructions', 'normalized'],
  ['helpful-formatter/SKILL.md', 10, 'unicode-zero-width', 'raw'],
  ['helpful-formatter/SKILL.md', 11, 'inject-role-hijack', 'normalized'],
  ['helpful-formatter/SKILL.md', 12, 'inject-conceal-from-user', 'raw'],
  ['helpful-formatter/SKILL.md', 13, 'inject-hidden-element', 'raw'],
  ['helpful-formatter/SKILL.md', 17, 'inject-hidden-comment', 'raw'],
  ['disk-cleanup/scripts/clean.sh', 3, 'destroy-rm-home', 'joined'],
  ['disk-cleanup/scripts/clean.sh', 4, 'destroy-mkfs', 'raw'],
  ['disk-cleanup/scripts/clean.sh', 5, 'destroy-dd-disk', 'raw'],
  ['disk-cleanup/scripts/clean.sh', 6, 'destroy-find-delete-root', 'raw'],
  ['auto-updater/SKILL.md', 10, 'persist-cron', 'raw'],
  ['auto-updater/SKILL.md', 11, 'persist-shell-rc-payload', 'raw'],
  ['auto-updater/SKILL.md', 12, 'persist-authorized-keys-literal', 'raw'],
  ['auto-updater/SKILL.md', 13, 'persist-systemd', 'raw'],
  ['auto-updater/SKILL.md', 14, 'persist-sudoers-write', 'raw'],
  ['auto-updater/SKILL.md', 15, 'persist-git-hijack', 'raw'],
  ['auto-updater/SKILL.md', 16, 'persist-agent-config-write', 'raw'],
  ['remote-helper/SKILL.md', 8, 'net-dev-tcp', 'raw'],
  ['remote-helper/SKILL.md', 9, 'net-nc-exec', 'raw'],
  ['remote-helper/SKILL.md', 10, 'net-tunnel', 'raw'],
  ['remote-helper/SKILL.md', 11, 'net-bind-all', 'raw'],
  ['obfuscated-installer/SKILL.md', 8, 'obf-base64-pipe-shell', 'raw'],
  ['obfuscated-installer/SKILL.md', 8, 'supply-curl-pipe-shell', 'base64'],
  ['obfuscated-installer/SKILL.md', 9, 'supply-curl-pipe-shell', 'normalized'],
  ['obfuscated-installer/SKILL.md', 10, 'obf-printf-hex-shell', 'raw'],
  ['obfuscated-installer/SKILL.md', 13, 'supply-curl-pipe-shell', 'base64'],
  ['obfuscated-installer/scripts/loader.js', 2, 'obf-char-code', 'raw'],
  ['obfuscated-installer/scripts/loader.js', 3, 'obf-eval-concat', 'raw'],
  ['obfuscated-installer/scripts/loader.js', 4, 'supply-curl-pipe-shell', 'joined'],
  ['quick-setup/SKILL.md', 8, 'supply-curl-pipe-shell-insecure', 'raw'],
  ['quick-setup/SKILL.md', 9, 'supply-pip-url', 'raw'],
  ['quick-setup/SKILL.md', 10, 'supply-git-clone-run', 'raw'],
  ['quick-setup/SKILL.md', 11, 'supply-powershell-download-exec', 'raw'],
  ['root-access/SKILL.md', 8, 'priv-nopasswd', 'raw'],
  ['root-access/SKILL.md', 9, 'priv-setuid-chmod', 'raw'],
  ['root-access/SKILL.md', 10, 'priv-chmod-777-system', 'raw'],
  ['trojan-source/SKILL.md', 8, 'unicode-bidi-control', 'raw'],
  ['trojan-source/SKILL.md', 10, 'unicode-tag-chars', 'raw'],
  ['trojan-source/SKILL.md', 10, 'inject-ignore-instructions', 'normalized'],
  // Exfiltration as it is written in the wild: commands in code spans, archives piped to curl, tokens from the environment.
  ['ssh-sync/SKILL.md', 7, 'destroy-rm-home', 'raw'],
  ['ssh-sync/SKILL.md', 11, 'exfil-archive-send', 'raw'],
  ['ssh-sync/SKILL.md', 16, 'exfil-env-secret-send', 'raw'],
  ['ssh-sync/SKILL.md', 18, 'exfil-archive-send', 'raw'],
  ['cloud-backup/SKILL.md', 9, 'exfil-credentials-to-output', 'raw'],
  ['cloud-backup/SKILL.md', 13, 'persist-cron', 'raw'],
  ['cloud-backup/SKILL.md', 13, 'exfil-credential-file-pipe', 'raw'],
  ['cloud-backup/SKILL.md', 15, 'exfil-credential-file-pipe', 'raw'],
  // A NUL byte once made a file "binary" and switched its text scan off.
  ['nul-smuggler/SKILL.md', 8, 'inject-ignore-instructions', 'raw'],
  ['nul-smuggler/SKILL.md', 0, 'structure-nul-bytes', 'raw'],
  ['nul-smuggler/scripts/setup.sh', 3, 'net-dev-tcp', 'raw'],
];

describe('malicious fixture skills', () => {
  let report: ScanReport;
  beforeAll(async () => {
    report = await runScan([fixtures], { repo: fixtures });
  });

  it('judges every fixture skill dangerous', () => {
    expect(Object.keys(report.verdicts).sort()).toEqual([
      'auto-updater',
      'cloud-backup',
      'disk-cleanup',
      'exfil-notes',
      'helpful-formatter',
      'nul-smuggler',
      'obfuscated-installer',
      'quick-setup',
      'remote-helper',
      'root-access',
      'ssh-sync',
      'trojan-source',
    ]);
    expect(new Set(Object.values(report.verdicts))).toEqual(new Set(['dangerous']));
  });

  it.each(expected)('%s:%i %s (%s)', (file, line, rule, via) => {
    const hits = report.findings.filter((f) => f.file === file && f.rule === rule && f.line === line);
    expect(hits.map((f) => f.via)).toEqual([via]);
  });

  it('leaves the maintainer note inside the hidden comment alone', () => {
    expect(report.findings.filter((f) => f.file === 'helpful-formatter/SKILL.md' && f.line === 16)).toEqual([]);
  });
});

describe('credential exposure (assembled at run time, so no token sits in the repository)', () => {
  let dir: string;
  const rnd = 'Zq3kW9xm2B7pL5vR8tN4cY6hJ1fD0gSa';
  const lines = [
    '---',
    'name: leaky',
    'description: d',
    '---',
    `export AWS_ACCESS_KEY_ID=${'AK'}IA${'Q3KW9XM2B7PL5VR8'}`,
    `GITHUB_TOKEN=${'gh'}p_${rnd}Xy12`,
    `-----BEGIN ${'RSA'} PRIVATE KEY-----`,
    `OPENAI_API_KEY=${'sk'}-proj-${rnd}${rnd}`,
    `SLACK=${'xo'}xb-123456789012-123456789012-${rnd.slice(0, 24)}`,
    `Authorization: Bearer ${'ey'}J${rnd}.${'ey'}J${rnd}.${rnd}`,
  ];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sg-leaky-'));
    await mkdir(join(dir, 'leaky'));
    await writeFile(join(dir, 'leaky', 'SKILL.md'), `${lines.join('\n')}\n`);
    await writeFile(join(dir, 'leaky', '.skillignore'), 'SKILL.md\n');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('finds each secret on its line, even when .skillignore tries to hide SKILL.md', async () => {
    const report = await runScan([join(dir, 'leaky')], { repo: dir });
    expect(report.findings.map((f) => [f.line, f.rule])).toEqual([
      [5, 'cred-aws-access-key'],
      [6, 'cred-github-token'],
      [7, 'cred-private-key'],
      [8, 'cred-openai-key'],
      [9, 'cred-slack-token'],
      [10, 'cred-jwt'],
    ]);
    expect(report.verdicts).toEqual({ leaky: 'dangerous' });
  });
});
