import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateCuratedLibrary } from '../../../bench/consolidate.js';
import { buildClusters } from '../../../src/core/consolidate/cluster.js';
import { resolveConsolidationConfig } from '../../../src/core/consolidate/config.js';
import { hasYamlDocument, selectCuratable } from '../../../src/core/consolidate/eligible.js';
import { buildAllFeatures } from '../../../src/core/consolidate/features.js';
import { maskText } from '../../../src/core/consolidate/guard.js';
import { collapseWhitespace, countSections, demoteHeadings, listHeadings, listParagraphs } from '../../../src/core/consolidate/markdown.js';
import { buildSignature, findCandidatePairs, mix, signatureSalts } from '../../../src/core/consolidate/minhash.js';
import { buildShingles, hashString, tokenizeWords } from '../../../src/core/consolidate/shingles.js';
import { utf8Length } from '../../../src/core/consolidate/validity.js';
import { stringifyUmbrellaData, writeScalar, type UmbrellaData } from '../../../src/core/consolidate/umbrella-yaml.js';
import { stringify } from 'yaml';
import { parseSkill } from '../../../src/core/skill/index.js';
import type { ParsedSkill } from '../../../src/core/skill/types.js';
import { readCorpusEntries } from '../../fixtures/consolidate/labelled-library.js';
import { indentYaml, yamlBlock } from '../../helpers/yaml-arbitrary.js';
import { listWantedWords, listWordsWithRepeats, replaceWords } from '../../../src/core/consolidate/rewrite.js';

/** The banding rule itself, over all pairs: two signatures are candidates when they agree on every row of some band. */
function candidatePairsByDefinition(signatures: readonly Uint32Array[], hashes: number, bands: number): number[] {
  const n = signatures.length;
  const rows = hashes / bands;
  const pairs: number[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const a = signatures[i] as Uint32Array;
      const b = signatures[j] as Uint32Array;
      if (a[0] === 0xffffffff || b[0] === 0xffffffff) continue;
      for (let band = 0; band < bands; band++) {
        let same = true;
        for (let r = band * rows; r < band * rows + rows && same; r++) same = a[r] === b[r];
        if (same) {
          pairs.push(i * n + j);
          break;
        }
      }
    }
  return pairs.sort((x, y) => x - y);
}

/** The guard's masking by its definition, in three passes (what the one-pass NameMask must equal). */
function maskByDefinition(text: string, names: readonly string[]): string {
  const noLinks = text.replace(/\]\([^)\n]*\)/g, ']()').replace(/^( {0,3}\[[^\]\n]+\]:)[ \t]*\S+/gm, '$1');
  const noNames = replaceWords(noLinks, new Map(names.map((n) => [n, '\u00a7'])));
  return noNames.replace(/[\w./\u00a7-]+/g, (run) => (run.includes('\u00a7') ? '\u00a7' : run));
}

/** Signatures by their definition: a Set of word hashes per skill, words in more than the share of skills counted in a Map and left out. */
function signaturesByDefinition(parsed: readonly ParsedSkill[], hashes: number, share: number): Uint32Array[] {
  const shingles = parsed.map((p) => {
    const description = typeof p.fields.description === 'string' ? p.fields.description : '';
    return new Set(tokenizeWords(`${description}\n${p.body}`).map(hashString));
  });
  const counts = new Map<number, number>();
  for (const set of shingles) for (const s of set) counts.set(s, (counts.get(s) ?? 0) + 1);
  const limit = Math.max(2, share * parsed.length);
  const common = parsed.length >= 200 && share < 1 ? new Set([...counts].filter(([, c]) => c > limit).map(([s]) => s)) : new Set<number>();
  return shingles.map((set) => buildSignature(Uint32Array.from([...set].filter((s) => !common.has(s))), hashes));
}

/** The Markdown helpers' line walk without its shortcuts: every line matched against the fence and heading patterns. */
function linesByDefinition(text: string): Array<{ line: string; inFence: boolean }> {
  const out: Array<{ line: string; inFence: boolean }> = [];
  let open: string | undefined;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      if (open === undefined) open = marker;
      else if (marker[0] === open[0] && marker.length >= open.length) {
        out.push({ line, inFence: true });
        open = undefined;
        continue;
      }
    }
    out.push({ line, inFence: open !== undefined });
  }
  return out;
}

const headingByDefinition = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

function paragraphsByDefinition(text: string): string[] {
  const out: string[] = [];
  let block: string[] = [];
  const flush = () => {
    const joined = block.join(' ').replace(/\s+/g, ' ').trim();
    if (joined !== '') out.push(joined);
    block = [];
  };
  for (const { line, inFence } of linesByDefinition(text)) {
    if (!inFence && (line.trim() === '' || headingByDefinition.test(line))) flush();
    else block.push(line);
  }
  flush();
  return out;
}

describe('the planner fast paths', () => {
  it('the Markdown helpers, with their shortcuts for lines and texts without fences, read texts as the plain line walk does', () => {
    const piece = fc.constantFrom(
      '# a',
      '## b #',
      '## ',
      '#c',
      'x',
      ' y ',
      '\t',
      '\n',
      '\n\n',
      '```',
      '~~~',
      '````',
      ' \r',
      '###### z',
      '####### w',
      '  # q',
      '\u00a0',
      '\u2028',
      ' é',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((p) => p.join('')),
        (text) => {
          const lines = linesByDefinition(text);
          expect(listParagraphs(text)).toEqual(paragraphsByDefinition(text));
          expect(listHeadings(text)).toEqual(
            lines.flatMap(({ line, inFence }) => {
              const match = inFence ? null : headingByDefinition.exec(line);
              return match ? [(match[2] as string).trim()] : [];
            }),
          );
          expect(countSections(text)).toBe(lines.filter(({ line, inFence }) => !inFence && /^## /.test(line)).length);
          expect(demoteHeadings(text)).toBe(
            lines
              .map(({ line, inFence }) => (!inFence && headingByDefinition.test(line) && !line.startsWith('######') ? `#${line}` : line))
              .join('\n'),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('signatures from sorted typed shingles equal those from Sets and a Map (common words left out)', () => {
    const config = resolveConsolidationConfig();
    for (const [size, seed, share] of [
      [150, 4, config.common_word_share],
      [600, 5, config.common_word_share],
      [600, 6, 0.02],
    ] as const) {
      const { eligible, parsed } = selectCuratable(generateCuratedLibrary(size, seed).skills);
      const fast = buildAllFeatures(eligible, { ...config, common_word_share: share }, parsed).map((f) => f.signature);
      expect(fast).toEqual(signaturesByDefinition(parsed, config.minhash_hashes, share));
    }
  });

  it('masks a text in one pass exactly as the three-pass definition does', () => {
    // A small alphabet, so names, paths (`a/b.c`), trailing dots, `§`, links and reference definitions collide often.
    const piece = fc.constantFrom(
      'ab',
      'a',
      'b-c',
      'c',
      '/',
      '.',
      '..',
      '-',
      '_',
      '\u00a7',
      ' ',
      '\n',
      '[x](ab)',
      '](',
      ')',
      '[r]: ',
      'é',
      '#',
    );
    const text = fc.array(piece, { maxLength: 40 }).map((p) => p.join(''));
    // Names beginning or made of characters no run holds (`é`, `#a`, `)`) are looked for too, and never blank a run by themselves.
    const names = fc.array(fc.constantFrom('ab', 'a', 'b-c', 'c', 'a/ab', 'ab.c', 'x', 'é', '#a', ')', 'a é'), { maxLength: 4 });
    fc.assert(
      fc.property(text, names, (t, n) => {
        expect(maskText(t, n)).toBe(maskByDefinition(t, n));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds exactly the candidate pairs the banding rule defines (hashed buckets, split by their rows)', () => {
    // Few distinct values, so many bands agree and buckets are large; the empty signature is among them.
    const signature = fc.array(fc.constantFrom(0, 1, 2, 0xffffffff, 7), { minLength: 16, maxLength: 16 }).map((v) => Uint32Array.from(v));
    fc.assert(
      fc.property(fc.array(signature, { maxLength: 40 }), fc.constantFrom(2, 4, 8, 16), (signatures, bands) => {
        const config = { minhash_hashes: 16, lsh_bands: bands };
        const found = [...findCandidatePairs(signatures, config)].sort((x, y) => x - y);
        expect(found).toEqual(candidatePairsByDefinition(signatures, 16, bands));
        // The Map of keys that a library of 2^21 signatures or more takes.
        expect([...findCandidatePairs(signatures, config, 0)].sort((x, y) => x - y)).toEqual(found);
      }),
      { numRuns: 300 },
    );
  });

  it('features and clusters from the parses selectCuratable hands on equal those from parsing again', () => {
    const config = resolveConsolidationConfig();
    for (const [size, seed] of [
      [150, 1],
      [400, 2],
    ] as const) {
      const library = generateCuratedLibrary(size, seed);
      const { eligible, parsed } = selectCuratable(library.skills);
      const handed = buildAllFeatures(eligible, config, parsed);
      const plain = buildAllFeatures(eligible, config);
      // A parse holds closures (locateKey, locateValue): two parses differ by identity; compare what they hold and answer.
      const view = (list: typeof plain) =>
        list.map(({ parsed: { locateKey, locateValue, ...parse }, ...rest }) => ({
          ...rest,
          parse,
          located: [locateKey(['name']), locateValue(['description'])],
        }));
      expect(view(handed)).toEqual(view(plain));
      expect(buildClusters(handed, config)).toEqual(buildClusters(plain, config));
    }
  });

  it('eligibility reads "the frontmatter is a YAML document" from the quick parse as the full parse says it', () => {
    const plainSays = (text: string) => parseSkill(text, { file: 'SKILL.md', fullParse: true }).document !== undefined;
    const quickSays = (text: string) => hasYamlDocument(parseSkill(text, { file: 'SKILL.md' }));
    const texts = [...readCorpusEntries().map((e) => e.text), ...generateCuratedLibrary(300, 9).skills.map((s) => s.text)];
    expect(texts.length).toBeGreaterThan(300);
    for (const text of texts) expect(quickSays(text), text.slice(0, 80)).toBe(plainSays(text));
    // Frontmatter the quick reader must read as the parser does or refuse: broken YAML, duplicate keys, flow, nesting.
    const scalar = fc.constantFrom('a', 'plain words', '"quoted: x"', "'it''s'", 'true', 'a: b', '"', '[x', '{', '*ref', '&a b', '');
    const key = fc.constantFrom('name', 'description', 'metadata', 'a-b', 'x');
    const line = fc.oneof(
      fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`),
      fc.tuple(key, yamlBlock(key, scalar)).map(([k, b]) => `${k}:\n${indentYaml(b)}`),
      fc.constantFrom('', '  ', '- a', ': x', '\t'),
    );
    let documents = 0;
    let none = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), (lines) => {
        const text = `---\n${lines.join('\n')}\n---\nBody\n`;
        const plain = plainSays(text);
        expect(quickSays(text)).toBe(plain);
        if (plain) documents++;
        else none++;
      }),
      { numRuns: 2000 },
    );
    // Both answers occur, so the property can fail either way.
    expect(documents).toBeGreaterThan(100);
    expect(none).toBeGreaterThan(10);
  });

  it('counts the UTF-8 bytes of a string as TextEncoder encodes it (lone surrogates as U+FFFD)', () => {
    const unit = fc.oneof(
      fc.constantFrom('a', '\u007f', '\u0080', 'é', '\u07ff', '\u0800', '€', '\uffff', '\ud83d\ude00', '\ud800', '\udc00', '\udbff\udfff'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 30 }), (units) => {
        const text = units.join('');
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
      { numRuns: 5000 },
    );
  });

  it('lists the wanted words of a text, repeats included, as filtering every word does', () => {
    const piece = fc.constantFrom('ab', 'a', 'b-c', 'abc', 'x_y', 'é', ' ', '\n', '/', '.', '-', '_', '[ab](ab)', '§', '9', 'AB');
    const names = fc.array(fc.constantFrom('ab', 'a', 'b-c', 'abc', 'x_y', '-', 'AB', 'ab-'), { maxLength: 4 });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), names, (pieces, wanted) => {
        const text = pieces.join('');
        const set = new Set<string>(wanted);
        expect(listWantedWords(text, set, new Set(wanted.map((w) => w.length)))).toEqual(
          listWordsWithRepeats(text).filter((w) => set.has(w)),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('hashes the words of ASCII text in one pass as tokenizing and hashing each word does', () => {
    const plain = (text: string) => Uint32Array.from(new Set(tokenizeWords(text).map(hashString))).sort();
    // Stop words in any case, numbers, one-letter words, separators, and letters that lowercase into ASCII (the plain path's).
    const piece = fc.oneof(
      fc.constantFrom(
        'The',
        'AND',
        'or',
        'examples',
        'eg',
        'e',
        'i',
        'x1',
        '12',
        '007',
        'a9',
        'Zz',
        'deploy',
        ' ',
        '\n',
        '-',
        '_',
        '.',
        '/',
      ),
      fc.constantFrom('\u0130', '\u212a', 'é', 'Straße', '\u0000', '\u007f'),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(buildShingles(text)).toEqual(plain(text));
      }),
      { numRuns: 5000 },
    );
    for (const skill of generateCuratedLibrary(200, 3).skills) expect(buildShingles(skill.text)).toEqual(plain(skill.text));
    for (const entry of readCorpusEntries()) expect(buildShingles(entry.text), entry.name).toEqual(plain(entry.text));
  });

  it('collapses whitespace as the pattern and trim do', () => {
    // ASCII and wider spaces, and look-alikes that are no \s (U+180E, U+200B).
    const piece = fc.constantFrom(
      'a',
      'bc',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u1680',
      '\u180e',
      '\u2000',
      '\u200a',
      '\u200b',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
      'é',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.nat(5), fc.nat(5), (pieces, cutStart, cutEnd) => {
        const text = pieces.join('');
        const start = Math.min(cutStart, text.length);
        const end = Math.max(start, text.length - cutEnd);
        expect(collapseWhitespace(text, start, end)).toBe(text.slice(start, end).replace(/\s+/g, ' ').trim());
        // renderSection's trimEnd for the pattern it replaced.
        expect(text.trimEnd()).toBe(text.replace(/\s+$/, ''));
      }),
      { numRuns: 5000 },
    );
    // Lines of words, as most paragraphs are (the one-replace path), with now and then another space or a control character.
    const line = fc.constantFrom('a', 'bc', 'é', ' ', ' ', '\n', '\n', '1.', '\u00a0', '\u2028', '\u0007', '\t');
    let lines = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        if (/\n/.test(text.trim()) && !/\s\s|[^\S \n]/.test(text.trim())) lines++;
        expect(collapseWhitespace(text, 0, text.length)).toBe(text.replace(/\s+/g, ' ').trim());
      }),
      { numRuns: 5000 },
    );
    expect(lines).toBeGreaterThan(200);
  });

  it("writes an umbrella's frontmatter data exactly as the yaml library does", () => {
    // Pieces that move the library between plain, double and single quotes, blocks and escapes.
    const piece = fc.constantFrom(
      'a',
      'Deploy',
      'x1',
      '0',
      '12',
      '1.5',
      'e3',
      'true',
      'null',
      'No',
      '~',
      ' ',
      '  ',
      ': ',
      ':',
      ' #',
      '#',
      '-',
      '- ',
      '?',
      '? ',
      ',',
      ';',
      '(',
      ')',
      '[',
      ']',
      '{',
      '}',
      '&',
      '*',
      '!',
      '|',
      '>',
      '<',
      "'",
      '"',
      '%',
      '@',
      '`',
      '\\',
      '/',
      '.',
      '...',
      '---',
      '\t',
      '\n',
      '\r',
      '\u0007',
      '\u0085',
      '\u00a0',
      '\u2028',
      '…',
      'é',
      '\ud83d\ude00',
      '\ud800',
      '=',
      '+',
      '_',
    );
    const printable = piece.filter((p) => !/[\x00-\x1f\x7f-\x9f\ud800-\udfff]/.test(p));
    const value = fc.oneof(
      fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
      fc.array(printable, { maxLength: 12 }).map((p) => p.join('')),
      // Whole values the library reads as other types, and near misses.
      fc.constantFrom(
        'true',
        'True',
        'TRUE',
        'tRUE',
        'false',
        'null',
        'Null',
        'NULL',
        'nulL',
        '~',
        '',
        'yes',
        'No',
        '0x1F',
        '.inf',
        '1e3',
        'x',
      ),
    );
    const key = fc.constantFrom('name', 'description', 'allowed-tools', 'when_to_use', 'Name', 'a b', '1x', '', 'true', 'null', 'no');
    const data = fc
      .tuple(
        fc.array(fc.tuple(key, value), { maxLength: 4 }),
        fc.option(fc.array(value, { maxLength: 3 })),
        fc.option(fc.array(fc.tuple(key, value), { maxLength: 3 })),
      )
      .map(([scalars, paths, metadata]) => {
        const out: UmbrellaData = Object.fromEntries(scalars);
        if (paths) out.paths = paths;
        if (metadata) out.metadata = Object.fromEntries(metadata);
        return out;
      });
    const written = { plain: 0, quoted: 0 };
    fc.assert(
      fc.property(data, (d) => {
        expect(stringifyUmbrellaData(d)).toBe(stringify(d, { lineWidth: 0 }));
        for (const v of Object.values(d).flatMap((x) => (typeof x === 'string' ? [x] : Object.values(x)))) {
          const scalar = writeScalar(v);
          if (scalar === v) written.plain++;
          else if (scalar !== undefined) written.quoted++;
        }
      }),
      { numRuns: 5000 },
    );
    // Both ways of writing a value are taken often enough for the comparison to mean something.
    expect(written.plain).toBeGreaterThan(1000);
    expect(written.quoted).toBeGreaterThan(1000);
    // The values umbrellas have are written directly, not by the library (else this fast path is no faster).
    const typical = {
      name: 'fam12-deploy',
      description: 'Fam12 deploy: covers fam12-deploy-part0 (Notes on staging…); fam12-deploy-part1 (Notes). Use when working on deploys.',
      'allowed-tools': 'Bash(git:*) Read',
      paths: ['src/**/*.ts', 'docs'],
      metadata: { absorbed: 'fam12-deploy-part0, fam12-deploy-part1', when_to_use: 'Use when deploying; or when rolling back.' },
    };
    for (const v of [typical.name, typical.description, typical['allowed-tools'], ...typical.paths, ...Object.values(typical.metadata)])
      expect(writeScalar(v)).toBeDefined();
    expect(stringifyUmbrellaData(typical)).toBe(stringify(typical, { lineWidth: 0 }));
  });

  it('a signature, four hash functions per walk, equals the minimum of each function taken alone', () => {
    const byDefinition = (shingles: Uint32Array, hashes: number): Uint32Array =>
      Uint32Array.from(signatureSalts(hashes), (salt) => shingles.reduce((min, s) => Math.min(min, mix(s ^ salt)), 0xffffffff));
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 120 }).map((v) => Uint32Array.from(v)),
        fc.integer({ min: 0, max: 131 }),
        (shingles, hashes) => {
          expect(buildSignature(shingles, hashes)).toEqual(byDefinition(shingles, hashes));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('a signature is the minimum per hash over its shingles: of a union, the smaller of the parts', () => {
    const shingles = fc.array(fc.nat({ max: 0xffffffff }), { maxLength: 20 }).map((v) => Uint32Array.from(v));
    fc.assert(
      fc.property(shingles, shingles, (a, b) => {
        const union = new Uint32Array([...a, ...b]);
        const [sa, sb] = [buildSignature(a, 16), buildSignature(b, 16)];
        expect(buildSignature(union, 16)).toEqual(Uint32Array.from(sa, (v, i) => Math.min(v, sb[i] as number)));
        // Order does not matter, and no shingle means no minimum (all ones).
        expect(buildSignature(union.slice().reverse(), 16)).toEqual(buildSignature(union, 16));
        expect(buildSignature(new Uint32Array(0), 16)).toEqual(new Uint32Array(16).fill(0xffffffff));
      }),
      { numRuns: 500 },
    );
  });
});
