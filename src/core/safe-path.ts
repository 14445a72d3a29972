/**
 * Paths git itself would refuse somewhere: what `git fsck --strict` reports in a tree, or what
 * `git checkout` refuses on some platform git supports (with `core.protectNTFS` and
 * `core.protectHFS`, the defaults). A tree entry is forever, so a path refused by one clone on
 * Windows or macOS is refused here for everyone. Pure: no fs.
 */

/** Why a path was refused; `component` is the offending part (the whole path for path-wide rules). */
export interface UnsafePath {
  code:
    | 'path/empty'
    | 'path/absolute'
    | 'path/dot-part'
    | 'path/dot-git'
    | 'path/git-file'
    | 'path/control-character'
    | 'path/windows-character'
    | 'path/windows-reserved'
    | 'path/trailing-dot-or-space'
    | 'path/ignorable-code-point'
    | 'path/not-unicode'
    | 'path/too-long';
  component: string;
  reason: string;
}

/** NAME_MAX on the file systems git runs on (ext4, APFS, NTFS's 255 UTF-16 units are never fewer bytes). */
export const maxComponentBytes = 255;
/**
 * What a writer adds to a file's name for its temporary sibling: the working-tree writer's
 * `.<name>.skillgarden-<pid>-<8 hex>` (pid at most 7 digits on Linux) adds 30 bytes; git's own
 * `<name>.lock` fewer. A component must leave room for it.
 */
export const tempNameOverheadBytes = 30;
export const maxPathBytes = 4096;

// Code points HFS+ ignores when it compares names (git's is_hfs_dotgit list): `.g\u200cit` is `.git` there.
const hfsIgnorable = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/u;
const windowsCharacters = /[:*?"<>|\\]/;

const controlCharacters = /[\u0000-\u001f\u007f]/;
// Device names Windows reserves in every folder, with any extension (`nul.txt` is NUL).
const windowsReserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.|$)/i;
// Files git reads from the tree itself: as a link (or an 8.3 short name of one) they are refused by fsck or checkout.
const gitFiles = ['.gitmodules', '.gitattributes', '.gitignore', '.mailmap'];
// NTFS 8.3 short names: `git~1` is `.git`; `gitmod~1`, or the hashed form git also checks (`gi7eba~1`), is `.gitmodules`.
const gitShortHashes = ['gi7eba', 'gi7d29', 'gi250a', 'maba30'];

function gitFileNamed(folded: string): string | undefined {
  const short = /^([a-z0-9]{6})~[0-9]+$/.exec(folded)?.[1];
  if (short === undefined) return gitFiles.find((name) => name === folded);
  return gitFiles.find((name, i) => name.slice(1, 7) === short || gitShortHashes[i] === short);
}

/** The component as NTFS and HFS+ would compare it: case folded, trailing dots and spaces and a `:stream` dropped, ignorables removed. */
function foldName(component: string): string {
  return component
    .replace(new RegExp(hfsIgnorable.source, 'gu'), '')
    .replace(/:.*$/s, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

function componentProblem(component: string, options: SafePathOptions): UnsafePath | undefined {
  const found = (code: UnsafePath['code'], reason: string): UnsafePath => ({ code, component, reason });
  if (component === '' || component === '.' || component === '..') return found('path/dot-part', 'it has an empty, "." or ".." part');
  if (/\p{Cs}/u.test(component)) return found('path/not-unicode', 'it holds a lone UTF-16 surrogate, which has no UTF-8 spelling');
  const folded = foldName(component);
  if (folded === '.git' || /^git~[0-9]+$/.test(folded)) {
    return found(
      'path/dot-git',
      `"${component}" is .git on Windows or macOS (case, 8.3 short name, trailing dots, streams or ignorable code points)`,
    );
  }
  const gitFile = gitFileNamed(folded);
  if (gitFile === '.gitmodules' || (gitFile !== undefined && options.symlink === true)) {
    return found(
      'path/git-file',
      `"${component}" is ${gitFile} to git, which reads it from the tree (as a link it is refused); skills never need one`,
    );
  }
  if (controlCharacters.test(component))
    return found('path/control-character', `"${JSON.stringify(component).slice(1, -1)}" holds a control character`);
  if (windowsCharacters.test(component))
    return found('path/windows-character', `"${component}" holds one of : * ? " < > | \\ (refused on Windows)`);
  if (windowsReserved.test(component.replace(/ +(?=\.|$)/g, '')))
    return found('path/windows-reserved', `"${component}" is a device name Windows reserves`);
  if (/[. ]$/.test(component)) return found('path/trailing-dot-or-space', `"${component}" ends in a dot or a space, which Windows drops`);
  if (hfsIgnorable.test(component))
    return found('path/ignorable-code-point', `"${JSON.stringify(component).slice(1, -1)}" holds a code point macOS ignores in names`);
  const bytes = byteLength(component);
  if (bytes + tempNameOverheadBytes > maxComponentBytes) {
    return found(
      'path/too-long',
      `"${component.slice(0, 40)}…" is ${bytes} bytes; a name may have ${maxComponentBytes - tempNameOverheadBytes} (${maxComponentBytes} less the writer's temporary suffix)`,
    );
  }
  return undefined;
}

export interface SafePathOptions {
  /** The path is written as a symbolic link. */
  symlink?: boolean;
}

/**
 * Why git would refuse `path` (repository-relative, `/`-separated) on some platform, or undefined.
 * Case in point: `references/git~1/config` is `.git/config` on Windows.
 */
export function findUnsafePath(path: string, options: SafePathOptions = {}): UnsafePath | undefined {
  if (path === '') return { code: 'path/empty', component: path, reason: 'it is empty' };
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path)) return { code: 'path/absolute', component: path, reason: 'it is absolute' };
  if (byteLength(path) > maxPathBytes)
    return { code: 'path/too-long', component: path.slice(0, 40), reason: `it is over ${maxPathBytes} bytes` };
  const parts = path.split('/');
  for (const [i, part] of parts.entries()) {
    const problem = componentProblem(part, { symlink: options.symlink === true && i === parts.length - 1 });
    if (problem) return problem;
  }
  return undefined;
}
