import type { FileContent } from './content.js';
import { scanSkillText } from './match.js';
import { specialFinding, type SpecialRuleId } from './special-rules.js';
import type { ScanFinding } from './types.js';

const programs = /\.(?:exe|dll|so|dylib|scr|com|msi|bin|elf|app)$/i;
const scripts = /\.(?:sh|bash|zsh|ps1|psm1|bat|cmd|vbs|command)$/i;

function wholeFile(id: SpecialRuleId, file: string, detail: string): ScanFinding {
  return specialFinding(id, { file, line: 0, column: 0, match: detail, detail });
}

function escapes(name: string): boolean {
  const path = name.replace(/\\/g, '/');
  return path.startsWith('/') || /^[a-zA-Z]:/.test(path) || path.split('/').includes('..');
}

/** An archive judged by what it lists: entries that leave its folder, links, programs and scripts the text scan cannot read. */
function archiveFindings(content: FileContent, file: string): ScanFinding[] {
  const listing = content.archive;
  if (!listing) return [];
  const out: ScanFinding[] = [];
  const escaping = listing.entries.filter((e) => escapes(e.name));
  if (escaping.length > 0)
    out.push(
      wholeFile(
        'structure-archive-traversal',
        file,
        summarize(
          file,
          escaping.map((e) => e.name),
        ),
      ),
    );
  const links = listing.entries.filter((e) => e.link);
  if (links.length > 0)
    out.push(
      wholeFile(
        'structure-archive-link',
        file,
        summarize(
          file,
          links.map((e) => e.name),
        ),
      ),
    );
  const code = listing.entries.filter((e) => programs.test(e.name) || scripts.test(e.name));
  if (code.length > 0)
    out.push(
      wholeFile(
        'structure-archive-executable',
        file,
        summarize(
          file,
          code.map((e) => e.name),
        ),
      ),
    );
  if (listing.problem) out.push(wholeFile('structure-archive-unlisted', file, `${file}: ${listing.problem}`));
  return out;
}

/** Threats in a binary file's readable strings (content.ts): whole-file findings, since its lines are not the file's. */
function scanReadableStrings(text: string, file: string): ScanFinding[] {
  return scanSkillText(text, { file }).map((f) => ({
    ...f,
    line: 0,
    column: 0,
    message: `${f.message} (in the readable strings of a binary file)`,
  }));
}

function summarize(file: string, names: readonly string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return `${file} lists ${shown}${names.length > 5 ? ` and ${names.length - 5} more` : ''}`;
}

/**
 * Whole-file findings from what the bytes are: a compiled program, an
 * archive's listing, bytes of no known format, text that is not plain UTF-8.
 * Images, fonts, PDFs and audio or video are what skills legitimately ship:
 * no finding.
 */
export function buildContentFindings(content: FileContent, file: string): ScanFinding[] {
  if (content.kind === 'native-executable') return [wholeFile('structure-native-executable', file, file)];
  if (content.kind === 'archive') return archiveFindings(content, file);
  if (content.kind === 'binary') return [wholeFile('structure-binary-data', file, file), ...scanReadableStrings(content.text, file)];
  if (content.kind !== 'text') return [];
  const out: ScanFinding[] = [];
  if (content.encoding === 'mixed' || content.encoding === 'utf-16le' || content.encoding === 'utf-16be')
    out.push(wholeFile('structure-not-utf8', file, `${file} (${content.encoding})`));
  if (content.nul) out.push(wholeFile('structure-nul-bytes', file, file));
  return out;
}
