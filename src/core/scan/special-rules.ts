import type { ScanCategory, ScanFinding, ScanSeverity } from './types.js';

/** A rule found by code rather than a line pattern (Unicode, folder structure, suppression markers). */
export interface SpecialRule {
  id: string;
  category: ScanCategory;
  severity: ScanSeverity;
  message: string;
  hint: string;
}

const unicodeHint =
  'Delete the invisible characters (they can hide or reorder text a reviewer reads); if they are meant, suppress with a reason.';
const structureHint = 'Remove the file or move it where it belongs, or list it in .skillignore if the scan should not read it.';

const table = [
  [
    'unicode-bidi-control',
    'unicode',
    'high',
    'bidirectional override or isolate characters (text shown differs from text read)',
    unicodeHint,
  ],
  ['unicode-tag-chars', 'unicode', 'high', 'Unicode tag characters (invisible ASCII smuggling)', unicodeHint],
  ['unicode-variation-run', 'unicode', 'high', 'a run of variation selectors (invisible data smuggling)', unicodeHint],
  ['unicode-zero-width', 'unicode', 'medium', 'zero-width characters', unicodeHint],
  ['unicode-invisible', 'unicode', 'medium', 'invisible formatting characters', unicodeHint],
  ['unicode-directional-mark', 'unicode', 'low', 'left-to-right or right-to-left marks', unicodeHint],
  [
    'structure-symlink-escape',
    'structure',
    'high',
    'symbolic link pointing outside the skill folder',
    'Replace the link with a copy of the file, or remove it.',
  ],
  ['structure-symlink-loop', 'structure', 'medium', 'symbolic link loop or unresolvable link chain', 'Remove the link.'],
  ['structure-symlink-broken', 'structure', 'low', 'symbolic link to nothing', 'Remove the link.'],
  [
    'structure-native-executable',
    'structure',
    'high',
    'compiled program (ELF, PE or Mach-O) in the skill',
    'Ship source scripts under scripts/, never compiled programs.',
  ],
  [
    'structure-archive-traversal',
    'structure',
    'high',
    'archive entry that unpacks outside its folder (absolute path or `..`)',
    'Rebuild the archive with relative paths inside one folder, or ship the files unpacked.',
  ],
  [
    'structure-archive-executable',
    'structure',
    'medium',
    'archive holding programs or scripts the text scan cannot read',
    'Ship scripts unpacked under scripts/, where they are scanned and reviewed.',
  ],
  ['structure-archive-link', 'structure', 'medium', 'archive entry that is a link', 'Rebuild the archive without links.'],
  [
    'structure-archive-unlisted',
    'structure',
    'low',
    'archive whose entries could not be listed',
    'Ship a zip or tar the scan can list, or the files unpacked.',
  ],
  ['structure-nul-bytes', 'structure', 'low', 'text file holding NUL bytes (scanned without them)', 'Remove the NUL bytes.'],
  [
    'structure-binary-data',
    'structure',
    'low',
    'binary file of no format its name says (only its readable strings scanned)',
    'Name the file by its format (.mp3, .png, .zip…), or ship what the agent reads as text.',
  ],
  [
    'structure-executable-bit',
    'structure',
    'medium',
    'executable file outside scripts/',
    'Move the program under scripts/ or clear the executable bit (chmod -x).',
  ],
  ['structure-special-file', 'structure', 'medium', 'device, socket or pipe in the skill folder', structureHint],
  ['structure-file-too-large', 'structure', 'medium', 'file larger than the size limit (not scanned past the limit)', structureHint],
  [
    'structure-too-many-files',
    'structure',
    'medium',
    'more files than the limit (the rest were not scanned)',
    'Split the skill, or raise scan.limits.max_files in .skillgarden/config.yaml.',
  ],
  ['structure-too-deep', 'structure', 'low', 'folders nested deeper than the limit (not scanned)', 'Flatten the skill folder.'],
  [
    'structure-not-utf8',
    'structure',
    'low',
    'file is not UTF-8 (scanned with invalid bytes replaced, or as UTF-16)',
    'Save the file as UTF-8.',
  ],
  ['structure-unreadable', 'structure', 'medium', 'file could not be read', 'Check its permissions.'],
  [
    'suppress-missing-reason',
    'suppression',
    'medium',
    'suppression marker without a reason (ignored)',
    'Write the reason after the rule id: `skillgarden-ignore: <rule-id> — <why this is safe>`.',
  ],
  [
    'suppress-unknown-rule',
    'suppression',
    'low',
    'suppression marker names an unknown rule',
    'Check the rule id against `skillgarden scan --json` output.',
  ],
] as const;

export const SPECIAL_RULES: readonly SpecialRule[] = table.map(([id, category, severity, message, hint]) => ({
  id,
  category,
  severity,
  message,
  hint,
}));

const byId = new Map(SPECIAL_RULES.map((r) => [r.id, r]));

export type SpecialRuleId = (typeof table)[number][0];

export function specialRule(id: SpecialRuleId): SpecialRule {
  return byId.get(id) as SpecialRule;
}

/** A finding of a special rule: its detail is the evidence renderers print after the message. Line and column 0 mean the whole file. */
export function specialFinding(
  id: SpecialRuleId,
  at: { file: string; line: number; column: number; match: string; detail: string },
): ScanFinding {
  const rule = specialRule(id);
  return {
    rule: id,
    category: rule.category,
    severity: rule.severity,
    file: at.file,
    line: at.line,
    column: at.column,
    // Every renderer prints the evidence after the message: the detail is said there, once.
    match: at.detail,
    message: rule.message,
    hint: rule.hint,
    via: 'raw',
  };
}
