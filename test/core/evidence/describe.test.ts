import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDescribeProposal, countCaught, explainNoDescribe, maxListingEntry } from '../../../src/core/evidence/describe.js';
import { redactText } from '../../../src/core/privacy/redact.js';

const releaseCut = { description: 'Cut a release. Use when asked to cut a release or ship a tag.' };
const asked = [
  'Publish a new version of the package to npm.',
  'Publish a new version of the package to npm, the fix is merged.',
  'Can you publish a new version of the package to npm?',
  'Please publish a new version of the package to npm today.',
  'Publish a new version of the package to npm, token $GITHUB_TOKEN.',
  'Publish a new version of the package to npm for the customers.',
];

describe('a description proposal from the words people used', () => {
  it('adds the typical clause of the missed requests as a trigger, the old description whole, with before/after counts', () => {
    expect(buildDescribeProposal({ ...releaseCut, requests: asked })).toEqual({
      description:
        'Cut a release. Use when asked to cut a release or ship a tag. Use when asked to publish a new version of the package to npm.',
      added: 'Use when asked to publish a new version of the package to npm.',
      before: 0,
      after: 6,
      requests: 6,
    });
  });

  it('says nothing when the wording already has every word, and lists words when the clause is a whole request', () => {
    const holds = { description: 'Publish a new npm version of the package.', requests: asked };
    expect(buildDescribeProposal(holds)).toBeUndefined();
    // The report says why: only the words the description holds are named (`token` is not one of them).
    expect(explainNoDescribe(holds)).toBe(
      'its description already holds the words people asked with (publish, version, package, npm): new wording would not change what a listing matches',
    );
    const long = ['Rebuild the docs site and upload the generated search index to the bucket and purge the CDN cache for the docs domain'];
    const proposal = buildDescribeProposal({ description: 'Docs.', requests: [...long, ...long] });
    expect(proposal?.added).toBe('Use when a request speaks of rebuild, docs, site, upload, generated, search, index, bucket.');
    expect(proposal?.description).not.toContain(long[0]);
  });

  it('puts the trigger in when_to_use when the description is full, and proposes nothing past the listing entry', () => {
    const full = `${'Deploys the service. '.repeat(48)}Use when deploying.`;
    const proposal = buildDescribeProposal({ description: full, when_to_use: 'When deploying.', requests: asked });
    expect(proposal?.description).toBe(full);
    expect(proposal?.when_to_use).toBe('When deploying. Use when asked to publish a new version of the package to npm.');
    const past = { description: full, when_to_use: 'x'.repeat(maxListingEntry - full.length), requests: asked };
    expect(buildDescribeProposal(past)).toBeUndefined();
    expect(explainNoDescribe(past)).toBe('the added trigger would pass 1024 characters for the description and 1536 for the listing entry');
  });

  it('keeps every sentence of the old wording, stays within the limits, catches no fewer requests, and is deterministic', () => {
    const sentence = fc.stringMatching(/^[A-Za-z][a-z]{0,12}( [a-z]{1,12}){0,8}\.$/);
    const request = fc.oneof(fc.constantFrom(...asked), fc.string({ maxLength: 300 }), sentence);
    fc.assert(
      fc.property(
        fc.array(sentence, { minLength: 1, maxLength: 60 }),
        fc.option(fc.array(sentence, { maxLength: 20 }), { nil: undefined }),
        fc.array(request, { maxLength: 12 }),
        (descriptionSentences, whenSentences, requests) => {
          const description = descriptionSentences.join(' ').slice(0, 1024);
          const whenToUse = whenSentences?.join(' ');
          const input = { description, ...(whenToUse === undefined ? {} : { when_to_use: whenToUse }), requests };
          const proposal = buildDescribeProposal(input);
          expect(buildDescribeProposal(input)).toEqual(proposal);
          if (proposal === undefined) return;
          expect(proposal.description.startsWith(description.trimEnd())).toBe(true);
          if (whenToUse !== undefined) expect(proposal.when_to_use?.startsWith(whenToUse.trimEnd())).toBe(true);
          expect(proposal.description.length).toBeLessThanOrEqual(1024);
          expect(proposal.description.length + (proposal.when_to_use?.length ?? 0)).toBeLessThanOrEqual(maxListingEntry);
          expect(proposal.after).toBeGreaterThanOrEqual(proposal.before);
          expect(proposal.before).toBe(countCaught(`${description} ${whenToUse ?? ''}`, requests));
          for (const r of requests) if (r.split(/\s+/).length > 12) expect(proposal.added).not.toContain(r.trim());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('adds no word of what redaction removed: no placeholder, no folder below a home (the requests as the reader keeps them)', () => {
    const requests = [0, 1, 2, 3].map((n) =>
      redactText(
        `Publish a new version of the package to npm${n % 2 ? ' today' : ''}. Token ghp_abcdefghijklmnopqrstuvwxyz012345678${n}, mail alice.secret@example.com, files in /home/alice/private-proj/acme`,
      ),
    );
    const proposal = buildDescribeProposal({ description: 'Cut a release of the library.', requests });
    expect(proposal?.added).toMatch(/^Use when asked to publish a new version of the package to npm/);
    for (const word of ['github', 'email', 'private', 'proj', 'acme', 'alice']) expect(proposal?.added.toLowerCase()).not.toContain(word);
  });
});
