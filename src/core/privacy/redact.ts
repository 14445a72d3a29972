/**
 * Private text out of transcripts: secrets, e-mail addresses and home paths
 * become placeholders before anything read from a session is kept, so no
 * draft, commit, report, pull request or model request can carry them.
 * Redaction errs toward removing: a placeholder where a harmless string stood
 * costs a reviewer a glance; a token that slips through is public for ever.
 */

/**
 * Facts of the machine the transcripts were read on: its home folders, also where they are not under
 * /home or /Users (`/var/lib/jenkins`). A user name alone is not replaced: a user named `app` or `node`
 * would rewrite half of every command.
 */
export interface RedactContext {
  readonly homes?: readonly string[];
}

type Replacer = (match: string, ...groups: string[]) => string;

interface Rule {
  readonly pattern: RegExp;
  readonly replace: string | Replacer;
}

/** A prefix that names the service fixes the placeholder: the variable a person would read the secret from. */
const tokens: readonly Rule[] = [
  {
    pattern: /-----BEGIN[A-Z ]{0,30}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z ]{0,30}PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: '<private key>',
  },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/g, replace: '$GITHUB_TOKEN' },
  { pattern: /\bgh[pousr]_[A-Za-z0-9]{20,}/g, replace: '$GITHUB_TOKEN' },
  { pattern: /\bglpat-[A-Za-z0-9_-]{16,}/g, replace: '$GITLAB_TOKEN' },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replace: '$SLACK_TOKEN' },
  { pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g, replace: '$ANTHROPIC_API_KEY' },
  { pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, replace: '$OPENAI_API_KEY' },
  { pattern: /\b(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}/g, replace: '$STRIPE_KEY' },
  { pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, replace: '$AWS_ACCESS_KEY_ID' },
  { pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, replace: '$GOOGLE_API_KEY' },
  { pattern: /\bhf_[A-Za-z0-9]{30,}/g, replace: '$HF_TOKEN' },
  { pattern: /\bnpm_[A-Za-z0-9]{30,}/g, replace: '$NPM_TOKEN' },
  { pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, replace: '$SENDGRID_API_KEY' },
  { pattern: /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, replace: '$JWT' },
  { pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g, replace: '$SLACK_WEBHOOK_URL' },
  { pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/[A-Za-z0-9/_-]+/g, replace: '$DISCORD_WEBHOOK_URL' },
];

/** A value already a placeholder or a variable is kept: `--password "$PW"` says nothing private. */
function secretValue(value: string, placeholder: string): string {
  return /^["']?(?:\$|<|%|\{\{)/.test(value) ? value : placeholder;
}

const secretWord = '(?:password|passwd|pass|pwd|token|secret|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth)';

const assignments: readonly Rule[] = [
  // URLs with credentials: scheme://user:pass@host (and scheme://token@host).
  {
    pattern: /\b([a-z][a-z0-9+.-]{1,20}:\/\/)([^\s:/@"'`]{1,100}):([^\s/@"'`]{1,200})@/gi,
    replace: (_m, scheme: string, _user: string, pass: string) => `${scheme}<user>:${secretValue(pass, '$PASSWORD')}@`,
  },
  // Authorization headers, whatever the scheme: the credential is the rest of the value.
  {
    pattern:
      /\b(authorization|proxy-authorization|x-api-key|api-key|private-token|x-auth-token)(\s*:\s*)(?:(bearer|basic|token|bot)\s+)?([^\s"'`]+)/gi,
    replace: (_m, header: string, sep: string, scheme: string | undefined, value: string) =>
      `${header}${sep}${scheme === undefined ? '' : `${scheme} `}${secretValue(value, '$TOKEN')}`,
  },
  // curl -u user:pass, --user user:pass.
  {
    pattern: /(\s(?:-u|--user|--proxy-user)[\s=]+["']?)([^\s:"']{1,100}):([^\s"']{1,200})/g,
    replace: (_m, flag: string, _user: string, pass: string) => `${flag}<user>:${secretValue(pass, '$PASSWORD')}`,
  },
  // docker login -u alice: the account is a person's name.
  {
    pattern: /(\blogin\b[^\n|;&]*?\s(?:-u|--username)(?:=|\s+))(["']?)([^\s"']+)\2/g,
    replace: (m, head: string, quote: string, user: string) => (user.startsWith('$') ? m : `${head}${quote}<user>${quote}`),
  },
  // mysql -pSECRET (the password glued to -p), in the MySQL family only: elsewhere -p is a port or a parent.
  {
    pattern: /(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)([^\s"']+)/g,
    replace: (_m, head: string, pass: string) => `${head}${secretValue(pass, '$MYSQL_PASSWORD')}`,
  },
  // docker login -p SECRET (and podman, helm registry, oras).
  {
    pattern: /(\b(?:docker|podman|oras|helm registry|buildah|skopeo)\s+login\b[^\n|;&]*?\s-p\s+)(["']?[^\s"']+["']?)/g,
    replace: (_m, head: string, pass: string) => `${head}${secretValue(pass, '$REGISTRY_PASSWORD')}`,
  },
  // --password SECRET, --token=SECRET, --api-key SECRET …
  {
    pattern: new RegExp(`(--?(?:[a-z]+-)?${secretWord}(?:=|\\s+))(["']?)([^\\s"']+)\\2`, 'gi'),
    replace: (m, flag: string, quote: string, value: string) =>
      value.startsWith('-') ? m : `${flag}${quote}${secretValue(value, '$SECRET')}${quote}`,
  },
  // .env-style and code assignments: GITHUB_TOKEN=…, "password": "…", api_key = '…'.
  {
    pattern: new RegExp(
      `\\b([A-Za-z_][A-Za-z0-9_]*${secretWord}[A-Za-z0-9_]*|${secretWord})(["']?\\s*[:=]\\s*)(["']?)([^\\s"',;}]{3,})\\3`,
      'gi',
    ),
    replace: (m, name: string, sep: string, quote: string, value: string) => {
      if (/^(?:true|false|null|none|undefined|\d{1,5})$/i.test(value)) return m;
      const variable = /^[A-Z][A-Z0-9_]+$/.test(name) ? `$${name}` : '$SECRET';
      return `${name}${sep}${quote}${secretValue(value, variable)}${quote}`;
    },
  },
];

// A git remote `git@host:owner/repo` names no person: kept.
const email = /(?<![\w$.%+-])(?!git@)[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/g;

const homePaths: readonly Rule[] = [
  { pattern: /(^|[^\w.~-])\/(?:home|Users)\/[^/\s"'`:]+(?=\/|\b|$)/g, replace: '$1~' },
  { pattern: /(^|[^\w])[A-Za-z]:\\(?:Users|Documents and Settings)\\[^\\\s"'`]+/g, replace: '$1~' },
  { pattern: /(^|[^\w.~-])\/root(?=\/)/g, replace: '$1~' },
  // Claude Code names a project folder after its path: `-home-alice-src-app`.
  { pattern: /(^|[^\w-])-(?:home|Users)-[A-Za-z0-9._]+(?=-)/g, replace: '$1-~' },
];

/**
 * What lies below a home folder is private too: its folders name projects and clients (`~/acme-contract/src`). A
 * path under `~` keeps only its file's name, when it names a file (`~/…/parser.ts`), so a step still says what
 * kind of file it worked on, and a SKILL.md its skill's folder (`~/…/pdf/SKILL.md`); a folder becomes `~/…`.
 */
const belowHome = /(^|[^\w.~-])~((?:\/[^/\s"'`:;|&<>()]+)+)\/?/g;

function shortenBelowHome(_m: string, head: string, path: string): string {
  // A sentence's full stop or comma after the path is the sentence's.
  const end = /[.,!?]+$/.exec(path)?.[0] ?? '';
  const rest = path.slice(0, path.length - end.length);
  // A skill's SKILL.md keeps its folder: the folder is the skill's name, and a read of it is how a session loads it.
  const keep = /(?:\/[^/]+)?\/SKILL\.md$/.exec(rest)?.[0] ?? rest.slice(rest.lastIndexOf('/'));
  const file = /^\/[^.].*\.[A-Za-z0-9]{1,8}$/.test(keep);
  if (!file) return `${head}~/…${end}`;
  return `${head}~${keep.length === rest.length ? '' : '/…'}${keep}${end}`;
}

/**
 * Redaction's placeholders, each of the forms it writes: `$GITHUB_TOKEN`, `$SECRET`, `<email>`, `<user>`,
 * `<private key>`, `~/…`. They stand for what was removed and are nobody's words: whatever takes words from
 * redacted text (a draft's name, a description's triggers) leaves them out.
 */
export const placeholders = /\$[A-Z][A-Z0-9_]*\b|<(?:email|user|private key)>|~\/…/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function apply(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const rule of rules) {
    rule.pattern.lastIndex = 0;
    out = out.replace(rule.pattern, rule.replace as string);
  }
  return out;
}

/** This machine's home folders, longest first (a home inside another is replaced whole). */
function contextRules(context: RedactContext): Rule[] {
  const homes = [...(context.homes ?? [])].filter((h) => h.length > 1).sort((a, b) => b.length - a.length);
  return homes.map((home) => ({ pattern: new RegExp(`${escapeRegExp(home)}(?=[\\\\/]|\\b|$)`, 'g'), replace: '~' }));
}

/** Cheap test first: most text of a session is code and prose with nothing private in it. */
const maybePrivate = /[@:=\\/]|-p|-----BEGIN|\b(?:gh[pousr]|github|glpat|xox|sk|rk|pk|AKIA|ASIA|AIza|hf|npm|SG|eyJ)[-_.]/;

/** Short texts remembered with their redaction: a session repeats its paths and commands (the rules cost ~25 passes). */
const maxRememberedChars = 256;
const maxRemembered = 8192;

export class Redactor {
  private readonly extra: readonly Rule[];
  private readonly remembered = new Map<string, string>();

  constructor(context: RedactContext = {}) {
    this.extra = contextRules(context);
  }

  /** The text with every secret, e-mail address and home path replaced by a placeholder. */
  text(value: string): string {
    if (!maybePrivate.test(value)) return value;
    if (value.length > maxRememberedChars) return this.redact(value);
    const known = this.remembered.get(value);
    if (known !== undefined) return known;
    const out = this.redact(value);
    if (this.remembered.size >= maxRemembered) this.remembered.clear();
    this.remembered.set(value, out);
    return out;
  }

  private redact(value: string): string {
    let out = apply(value, tokens);
    out = apply(out, assignments);
    out = apply(out, this.extra);
    out = apply(out, homePaths);
    belowHome.lastIndex = 0;
    if (out.includes('~/')) out = out.replace(belowHome, shortenBelowHome);
    email.lastIndex = 0;
    return out.replace(email, '<email>');
  }

  /** Every string inside a value redacted, keys kept (the plain rule `keptArguments` in the transcript reader is checked against). */
  value(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.value(v));
    if (typeof value === 'object' && value !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, v] of Object.entries(value)) out[key] = this.value(v);
      return out;
    }
    return value;
  }
}

/** Redacts one text with no machine context (the generic home-path, secret and e-mail rules). */
export function redactText(text: string, context: RedactContext = {}): string {
  return new Redactor(context).text(text);
}
