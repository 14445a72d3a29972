import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildClusters, buildFeatures, resolveConsolidationConfig } from '../../../src/core/consolidate/index.js';
import { buildSignature, estimateJaccard, findCandidatePairs } from '../../../src/core/consolidate/minhash.js';
import { buildFamilyPrefixes, sharedPrefix } from '../../../src/core/consolidate/prefix.js';
import { curated } from './library.js';

const config = resolveConsolidationConfig();

describe('sharedPrefix', () => {
  it.each<[string[], number, string | null]>([
    [['deploy-staging', 'deploy-production'], 3, 'deploy'],
    [['deploy', 'deploy-staging'], 3, 'deploy'],
    [['k8s-pod-logs', 'k8s-pod-exec'], 3, 'k8s-pod'],
    [['ci-a', 'ci-b'], 3, null],
    [['deployment', 'deploy-x'], 3, null],
    [['alpha'], 3, 'alpha'],
  ])('%j (min %i) → %s', (names, min, expected) => {
    expect(sharedPrefix(names, min)).toBe(expected);
  });
});

describe('buildFamilyPrefixes', () => {
  it('gives each name the longest prefix it shares with another name', () => {
    const names = ['scientific-writing-a', 'scientific-writing-b', 'scientific-slides', 'solo'];
    expect(buildFamilyPrefixes(names.map((n) => n.split('-')))).toEqual(['scientific-writing', 'scientific-writing', 'scientific', null]);
  });
});

describe('MinHash', () => {
  it('estimates Jaccard similarity within 0.15 of the truth', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 20, maxLength: 200 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { minLength: 20, maxLength: 200 }),
        (a, b) => {
          const shared = a.filter((x) => b.includes(x)).length;
          const truth = shared / (a.length + b.length - shared);
          const estimate = estimateJaccard(buildSignature(Uint32Array.from(a), 128), buildSignature(Uint32Array.from(b), 128));
          expect(Math.abs(estimate - truth)).toBeLessThan(0.15);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('makes near-duplicates candidate pairs by banding', () => {
    const base = Array.from({ length: 100 }, (_, i) => i);
    const signatures = [base, [...base.slice(5), 500, 501, 502, 503, 504], Array.from({ length: 100 }, (_, i) => 1000 + i)].map((s) =>
      buildSignature(Uint32Array.from(s), 128),
    );
    expect([...findCandidatePairs(signatures, config)]).toEqual([0 * 3 + 1]);
  });
});

describe('buildClusters', () => {
  const cluster = (skills: ReturnType<typeof curated>[]) =>
    buildClusters(
      skills.map((s) => buildFeatures(s, config)),
      config,
    );

  it('groups a name family whose content overlaps, with its evidence', () => {
    const clusters = cluster([
      curated('deploy-staging', '# Staging\n\nDeploy the web service to staging servers.\n', { extra: 'allowed-tools: Bash Read\n' }),
      curated('deploy-production', '# Production\n\nDeploy the web service to production servers.\n', { extra: 'allowed-tools: Bash\n' }),
      curated('pdf-forms', '# Forms\n\nFill PDF form fields with pypdf.\n', { description: 'Fill PDF forms.' }),
    ]);
    expect(clusters).toHaveLength(1);
    expect(clusters[0]).toMatchObject({
      members: ['deploy-production', 'deploy-staging'],
      evidence: { prefix: 'deploy', sharedTools: ['Bash'] },
    });
    expect(clusters[0]!.evidence.similarities[0]!.jaccard).toBeGreaterThan(0.3);
  });

  it('does not join skills that share a prefix but not their content', () => {
    const clusters = cluster([
      curated('code-review', '# Review\n\nRead the diff, comment on naming, tests and error handling.\n', {
        description: 'Review a pull request diff.',
      }),
      curated('code-format', '# Format\n\nRun prettier over typescript sources before committing.\n', {
        description: 'Format sources with prettier.',
      }),
    ]);
    expect(clusters).toEqual([]);
  });

  it('does not chain two name families through their shorter common prefix', () => {
    const vocab = {
      writing: 'manuscript abstract citation journal reviewer draft',
      slides: 'deck layout presenter audience projector template',
    };
    const body = (topic: keyof typeof vocab, i: number) => `# Part ${i}\n\nScientific ${vocab[topic]} part${i} step${i}.\n`;
    const skills = [0, 1, 2].flatMap((i) => [
      curated(`scientific-writing-s${i}`, body('writing', i), { description: `Scientific ${vocab.writing}.` }),
      curated(`scientific-slides-s${i}`, body('slides', i), { description: `Scientific ${vocab.slides}.` }),
    ]);
    const members = cluster(skills).map((c) => c.members);
    expect(members).toEqual([
      ['scientific-slides-s0', 'scientific-slides-s1', 'scientific-slides-s2'],
      ['scientific-writing-s0', 'scientific-writing-s1', 'scientific-writing-s2'],
    ]);
  });

  it('joins near-duplicate content without a shared prefix', () => {
    const text =
      '# Rotate\n\nRotate the TLS certificates of the load balancer, then reload nginx and check the expiry date with openssl.\n';
    const clusters = cluster([curated('rotate-certs', text), curated('tls-renewal', text.replace('Rotate', 'Renew'))]);
    expect(clusters.map((c) => c.members)).toEqual([['rotate-certs', 'tls-renewal']]);
    expect(clusters[0]!.evidence.prefix).toBeNull();
  });
});

describe('buildFeatures', () => {
  it('reads allowed-tools as the registry does: a tool with an argument pattern is one tool', () => {
    const skill = curated('deploy-staging', '# Staging\n', { extra: 'allowed-tools: Read, Bash(git add *) Write\n' });
    expect(buildFeatures(skill, config).tools).toEqual(['Read', 'Bash(git add *)', 'Write']);
  });
});

describe('buildFeatures paths', () => {
  it('reads paths as the registry and the glob rule do: an empty entry is no glob', () => {
    const skill = curated('deploy-staging', '# Staging\n', { extra: "paths: 'src/**, ,docs/*.md'\n" });
    expect(buildFeatures(skill, config).paths).toEqual(['src/**', 'docs/*.md']);
  });
});
