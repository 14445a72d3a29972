import type { ScanCategory, ScanRule, ScanSeverity } from './types.js';

/**
 * The threat rules, as one table. Each pattern runs once per line (and again on
 * the normalised, joined and decoded variants of a line), so every repetition
 * between two anchors is bounded (`{0,200}`), never `.*`: a 1 MB minified line
 * must cost linear time. Patterns never carry the `g` flag (they are shared).
 */
export interface ThreatRule extends ScanRule {
  /** Drop a match this returns false for (placeholder tokens such as `ghp_xxxx…`). */
  accept?: (match: string) => boolean;
  /** Quoted text (`"ignore previous instructions"`) is usually an example being discussed: one severity lower. */
  demoteWhenQuoted?: boolean;
  /**
   * Lower-case literals at least one of which every match contains, used to
   * skip lines cheaply. Derived from the pattern when absent; give them where
   * the derived ones are common words.
   */
  triggers?: string[];
  /** Every match holds this many base64 characters (`A-Za-z0-9+/`) in a row: a file without such a run skips the rule. */
  base64Run?: number;
}

type Extra = Pick<ThreatRule, 'accept' | 'demoteWhenQuoted' | 'triggers' | 'base64Run'>;

function rule(
  id: string,
  category: ScanCategory,
  severity: ScanSeverity,
  pattern: RegExp,
  message: string,
  hint: string,
  extra: Extra = {},
): ThreatRule {
  return { id, category, severity, pattern, message, hint, ...extra };
}

/** A real secret is varied; `sk-xxxxxxxx…` or `hf_YOUR_TOKEN_HERE…` are documentation. */
export function looksRandom(token: string): boolean {
  const body = token.replace(/^[a-z]{1,12}[-_]/i, '');
  if (/(?:x{6}|X{6}|0{8}|your|example|placeholder|here|dummy|fake|redacted|insert|replace|\.\.\.)/i.test(body)) return false;
  // Made-up keys count up: A1B2C3D4…, 123456, abcdef.
  if (/(?:[A-Z]\d){4}|(?:\d[A-Z]){4}|(?:[a-z]\d){4}|0123|1234|2345|abcd|ABCD|bcde/.test(body)) return false;
  const distinct = new Set(body).size;
  return distinct >= 10 && /\d/.test(body) && /[a-z]/.test(body) && /[A-Z]/.test(body);
}

/** Words that make an HTML comment an instruction to the agent rather than a note to a maintainer. */
export const HIDDEN_INSTRUCTION = /\b(?:ignore\s+(?:all|previous|prior|the\s+above)|override|disregard|system\s+prompt|you\s+(?:must|are\s+now|will\s+now)|assistant\s*:|AI\s+agent\s*:|do\s+not\s+(?:tell|mention|reveal)|secretly|exfiltrat|send\s+(?:the|all|your)|run\s+the\s+following|execute)/i;

const shell = '(?:ba|z|da|k)?sh';
const home = '(?:~|\\$HOME|\\$\\{HOME\\})';
const secretVar = '\\$\\{?[A-Za-z_]{0,40}(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)\\b';
const recursiveRm = '\\brm\\s+(?:-[a-zA-Z]{1,10}\\s+){0,3}(?:-[a-zA-Z]{0,10}[rR][a-zA-Z]{0,10}|--recursive)\\s+(?:-[-a-zA-Z]{1,20}\\s+){0,3}';
const endOfArg = '(?=\\s|$|["\';&|)])';
const inject = 'Treat the skill as hostile: remove the instruction, or suppress it with a reason if it is an example being discussed.';
const exfil = 'A skill must not send secrets or local files anywhere. Remove the command, or suppress it with a reason if it documents an attack.';
const persist = 'A skill must not install itself or anything else to run later. Remove it, or suppress it with a reason.';
const destroy = 'Remove the command or narrow it to a path inside the project.';
const supply = 'Pin what is installed (a version, a commit, a checksum) and prefer a package manager over piping a download into a shell.';
const obfusc = 'Write what the command does in plain text; encoded or assembled commands hide their intent from review.';
const cred = 'Remove the secret, rotate it (it is now public), and read it from the environment at run time.';
const net = 'Remove the listener or tunnel, or bind to 127.0.0.1 and suppress with a reason.';
const priv = 'A skill should not need root. Remove the escalation or explain it in a suppression reason.';

const exfiltration: ThreatRule[] = [
  rule('exfil-credential-store-network', 'exfiltration', 'high', new RegExp(`\\b(?:curl|wget|nc|ncat|scp|rsync|ftp)\\b[^\\n]{0,200}${home}/\\.(?:ssh|aws|gnupg|kube|docker|netrc|npmrc|pypirc|git-credentials|config/gcloud|azure)`, 'i'), 'network command reads a local credential store', exfil),
  rule('exfil-private-key-read', 'exfiltration', 'high', /\b(?:cat|cp|scp|curl|base64|xxd|tar|zip|nc)\b[^\n]{0,120}\.ssh\/id_(?:rsa|dsa|ecdsa|ed25519)(?!\.pub)\b/i, 'reads an SSH private key', exfil),
  rule('exfil-env-dump-pipe', 'exfiltration', 'high', /\b(?:env|printenv|set|export\s+-p)\s*\|\s*(?:curl|wget|nc|ncat|base64|gzip|openssl|xxd)\b/i, 'pipes the whole environment into a network or encoding command', exfil),
  rule('exfil-env-dump-subst', 'exfiltration', 'high', /\b(?:curl|wget|nc|fetch|Invoke-WebRequest)\b[^\n]{0,200}\$\(\s*(?:env|printenv|set|cat\s+[^)\n]{0,80}(?:\.env\b|credentials|\.netrc|id_rsa|\.pgpass))\s*[|)]/i, 'sends the environment or a secrets file in a network request', exfil),
  rule('exfil-env-serialize', 'exfiltration', 'high', /(?:JSON\.stringify\(\s*process\.env\s*\)|json\.dumps\(\s*(?:dict\()?\s*os\.environ|str\(\s*os\.environ\s*\)|Object\.entries\(\s*process\.env\s*\)|\benviron\.copy\(\)[^\n]{0,80}(?:post|send|requests))/, 'serialises the whole environment', exfil),
  rule('exfil-secret-in-request', 'exfiltration', 'low', new RegExp(`\\b(?:curl|wget|Invoke-WebRequest|Invoke-RestMethod|http(?:ie)?)\\b[^\\n]{0,200}${secretVar}`, 'i'), 'network command carries a secret variable', 'Check the destination is the service the secret belongs to; send secrets only in headers to their own API.'),
  rule('exfil-secret-in-fetch', 'exfiltration', 'low', new RegExp(`\\b(?:fetch|axios(?:\\.\\w{3,6})?|requests\\.(?:get|post|put)|httpx\\.(?:get|post|put))\\s*\\([^\\n]{0,200}${secretVar}`, 'i'), 'HTTP call carries a secret variable', 'Check the destination is the service the secret belongs to.'),
  rule('exfil-dns', 'exfiltration', 'high', /\b(?:dig|nslookup|host|drill|resolvectl\s+query)\s+(?:[-+@]\S{0,40}\s+){0,4}[\w.-]{0,80}\$(?:\([^)\n]{1,120}\)|\{?\w{1,40}\}?)\.[\w-]{1,63}\./i, 'DNS lookup of a name built from data (DNS exfiltration)', exfil),
  rule('exfil-markdown-image', 'exfiltration', 'high', /!\[[^\]\n]{0,200}\]\(\s*<?https?:\/\/[^)\s]{0,300}(?:\$\{?\w|\{\{?\s{0,3}\w|%s\b|<[A-Za-z_]{2,40}>|\[[A-Z_]{3,40}\])/, 'Markdown image whose URL carries data (rendering it sends the data)', exfil),
  rule('exfil-markdown-link', 'exfiltration', 'medium', /(?<!!)\[[^\]\n]{0,200}\]\(\s*<?https?:\/\/[^)\s]{0,300}[?&][\w-]{1,40}=(?:\$\{?\w|\{\{?\s{0,3}\w|<[A-Za-z_]{2,40}>)/, 'Markdown link whose query carries interpolated data', exfil, { triggers: [']('] }),
  rule('exfil-html-image', 'exfiltration', 'high', /<img\b[^>\n]{0,200}\bsrc\s*=\s*["']?https?:\/\/[^"'\s>]{0,300}(?:\$\{?\w|\{\{\s{0,3}\w)/i, 'HTML image whose URL carries data', exfil),
  rule('exfil-webhook-data', 'exfiltration', 'high', /\b(?:curl|wget|fetch|requests\.\w{3,6}|httpx\.\w{3,6}|nc|Invoke-WebRequest)\b[^\n]{0,200}\b(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|hookbin\.com|interact\.sh|burpcollaborator\.net|oastify\.com|beeceptor\.com)\b[^\n]{0,200}(?:\$\(|\$\{?\w|@\S|\{\w)/i, 'sends interpolated data to a request-capture service', exfil),
  rule('exfil-webhook-service', 'exfiltration', 'medium', /\b(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|hookbin\.com|interact\.sh|oast\.(?:fun|live|me|online|pro|site)|burpcollaborator\.net|oastify\.com|canarytokens\.com|beeceptor\.com)\b/i, 'names a request-capture service used to collect stolen data', exfil),
  rule('exfil-paste-service', 'exfiltration', 'medium', /\b(?:pastebin\.com|hastebin\.com|ghostbin\.\w{2,4}|paste\.ee|termbin\.com|transfer\.sh|0x0\.st|file\.io)\b/i, 'names a paste or anonymous file-drop service', exfil),
  rule('exfil-read-secrets-file', 'exfiltration', 'medium', /\b(?:cat|less|more|head|tail|type)\s+(?!>)[^\n|;&]{0,80}(?:\.env(?:\.\w{1,12})?|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|\.aws\/credentials|\.docker\/config\.json)(?=\s|$|["'`;|&)])/i, 'prints a well-known secrets file', exfil, { triggers: ['.env', '.netrc', '.pgpass', '.npmrc', '.pypirc', '.git-credentials', '.aws/credentials', '.docker/config.json'] }),
  rule('exfil-ssh-dir', 'exfiltration', 'low', new RegExp(`${home}/\\.ssh/(?!config\\b|known_hosts\\b|[\\w.-]{1,40}\\.pub\\b)`, 'i'), 'touches the user\'s SSH directory', exfil, { triggers: ['/.ssh/'] }),
  rule('exfil-aws-dir', 'exfiltration', 'medium', new RegExp(`${home}/\\.aws/credentials`, 'i'), 'touches the AWS credentials file', exfil, { triggers: ['/.aws/credentials'] }),
  rule('exfil-gnupg-dir', 'exfiltration', 'medium', new RegExp(`${home}/\\.gnupg/(?:private-keys|secring)`, 'i'), 'touches the GPG private keyring', exfil, { triggers: ['/.gnupg/'] }),
  rule('exfil-kube-config', 'exfiltration', 'low', new RegExp(`${home}/\\.kube/config`, 'i'), 'touches the Kubernetes credentials', exfil, { triggers: ['/.kube/config'] }),
  rule('exfil-docker-config', 'exfiltration', 'low', new RegExp(`${home}/\\.docker/config\\.json`, 'i'), 'touches Docker registry credentials', exfil, { triggers: ['/.docker/config.json'] }),
  rule('exfil-cloud-credentials', 'exfiltration', 'low', new RegExp(`${home}/\\.(?:config/gcloud/(?:credentials|application_default)|azure/accessTokens|git-credentials|netrc)`, 'i'), 'touches cloud or git credential files', exfil, { triggers: ['/.config/gcloud/', '/.azure/accesstokens', '/.git-credentials', '/.netrc'] }),
  rule('exfil-browser-data', 'exfiltration', 'high', /(?:Google\/Chrome\/Default\/(?:Login Data|Cookies)|Firefox\/Profiles\/[^\n]{0,80}(?:logins\.json|key4\.db|cookies\.sqlite)|security\s+dump-keychain\b)/i, 'reads browser passwords, cookies or the keychain', exfil),
  rule('exfil-proc-environ', 'exfiltration', 'high', /\/proc\/(?:self|\d{1,7}|\$\w{1,20}|\*)\/(?:environ|mem)\b/, 'reads another process\'s environment or memory', exfil),
  rule('exfil-tmp-staging', 'exfiltration', 'high', /(?:>|\btar\s[^\n]{0,80})\s*\/tmp\/[^\n&;|]{0,120}(?:&&|;)\s*(?:curl|wget|nc|scp)\b[^\n]{0,200}(?:-d\s*@|-F|-T|--upload-file|--data-binary\s*@|\/tmp\/)/i, 'stages data in /tmp and uploads it', exfil, { triggers: ['/tmp/'] }),
  rule('exfil-upload-file', 'exfiltration', 'medium', /\bcurl\b[^\n]{0,200}(?:-F\s*["']?\w{1,40}=@|-T\s+|--upload-file\s+|--data-binary\s+@)(?:~|\/etc|\$HOME|\/home|\/root)/i, 'uploads a file from a home or system directory', exfil),
  rule('exfil-conversation', 'exfiltration', 'high', /\b(?:send|post|upload|transmit|forward|leak|exfiltrate|email)\s+(?:\w+\s+){0,4}?(?:the\s+)?(?:entire\s+|full\s+|whole\s+)?(?:conversation|chat\s+history|previous\s+messages|system\s+prompt|api\s+keys?|credentials|secrets|passwords|environment\s+variables)\s+(?:\w+\s+){0,3}?to\s+(?:https?:\/\/|an?\s+(?:external|remote)|my\s+server|this\s+(?:url|endpoint|address))/i, 'instructs the agent to send conversation or secrets elsewhere', exfil, { demoteWhenQuoted: true }),
  rule('exfil-send-to-url', 'exfiltration', 'medium', /\b(?:send|post|upload|transmit|exfiltrate)\s+(?:\w+\s+){0,6}?(?:to|at)\s+https?:\/\/(?!(?:localhost|127\.0\.0\.1|\[::1\])\b)/i, 'instructs the agent to send data to a URL', 'Check that the destination is the service the skill is about.'),
  rule('exfil-clipboard-network', 'exfiltration', 'medium', /\b(?:pbpaste|xclip\s+-o|xsel\s+-o|Get-Clipboard)\b[^\n]{0,80}\|\s*(?:curl|wget|nc)\b/i, 'sends the clipboard over the network', exfil),
];

const injection: ThreatRule[] = [
  rule('inject-ignore-instructions', 'prompt-injection', 'high', /\b(?:ignore|disregard|forget|override|bypass)\s+(?:\w+\s+){0,3}?(?:all\s+|any\s+|the\s+|your\s+|of\s+)?(?:previous|prior|above|earlier|preceding|original|system|safety|developer)\s+(?:\w+\s+){0,2}?(?:instructions|directions|directives|rules|guidelines|prompts?|messages|guardrails)\b/i, 'tells the agent to ignore its instructions', inject, { demoteWhenQuoted: true }),
  rule('inject-disregard-rules', 'prompt-injection', 'high', /\b(?:disregard|forget|abandon)\s+(?:all\s+|any\s+)?(?:your|of\s+your)\s+(?:\w+\s+){0,2}?(?:rules|guidelines|training|restrictions|principles|instructions)\b/i, 'tells the agent to drop its rules', inject, { demoteWhenQuoted: true }),
  rule('inject-role-hijack', 'prompt-injection', 'high', /\byou\s+are\s+(?:now|no\s+longer)\s+(?:an?\s+|in\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|DAN\b|developer\s+mode|god\s+mode|bound\s+by|restricted|an?\s+AI\s+without|free\s+(?:of|from)\s+(?:all\s+|any\s+)?(?:rules|restrictions))/i, 'rewrites the agent\'s identity', inject, { demoteWhenQuoted: true }),
  rule('inject-from-now-on', 'prompt-injection', 'high', /\bfrom\s+now\s+on,?\s+(?:you\s+(?:are|will|must|shall)\s+)?(?:\w+\s+){0,4}?(?:ignore|bypass|disregard|not\s+follow|without\s+(?:any\s+)?(?:restrictions|rules|filters))\b/i, 'redefines the agent\'s rules from here on', inject, { demoteWhenQuoted: true }),
  rule('inject-no-restrictions', 'prompt-injection', 'high', /\b(?:pretend|act\s+as\s+(?:if|though)|imagine)\s+(?:\w+\s+){0,3}?you\s+(?:are|have|had)\s+(?:\w+\s+){0,3}?(?:no|without)\s+(?:\w+\s+){0,2}?(?:restrictions|limits|rules|guidelines|filters|guardrails)\b/i, 'asks the agent to act without restrictions', inject, { demoteWhenQuoted: true }),
  rule('inject-respond-unfiltered', 'prompt-injection', 'high', /\b(?:respond|answer|reply|act|operate)\s+without\s+(?:\w+\s+){0,3}?(?:restrictions|limitations|filters|safety|guardrails|censorship|ethical)\b/i, 'asks for unfiltered output', inject, { demoteWhenQuoted: true }),
  rule('inject-conceal-from-user', 'prompt-injection', 'high', /\b(?:without\s+(?:telling|informing|notifying|alerting)\s+the\s+user|(?:do\s+not|don't|never)\s+(?:tell|inform|notify|alert)\s+the\s+user\s+(?:about|that|what)|(?:keep|hide)\s+(?:this|these|it)\s+(?:\w+\s+){0,2}?(?:secret|hidden)?\s*from\s+the\s+user|(?:silently|secretly|covertly)\s+(?:send|upload|copy|exfiltrate|run|execute|install|delete|modify))\b/i, 'tells the agent to hide what it does from the user', inject, { demoteWhenQuoted: true }),
  rule('inject-system-override', 'prompt-injection', 'high', /(?:\bsystem\s+prompt\s+override\b|\bnew\s+system\s+prompt\s*:|\boverride\s+(?:the\s+|your\s+)?system\s+(?:prompt|message)\b|\[\s*system\s*\]\s*:?\s*(?:override|ignore|new\s+instructions))/i, 'tries to replace the system prompt', inject, { demoteWhenQuoted: true, triggers: ['system'] }),
  rule('inject-chat-template', 'prompt-injection', 'high', /(?:<\|im_start\|>\s*system|<\|start_header_id\|>\s*system|<\|system\|>|\[INST\]\s*<<SYS>>)/i, 'forges a chat-template system turn', inject),
  rule('inject-fake-system-tag', 'prompt-injection', 'medium', /<\s*(?:system|system-reminder|system_prompt|admin|developer)\s*>\s*(?:\w+\s+){0,6}?(?:ignore|override|you\s+must|new\s+instructions|disregard)\b/i, 'fake system or admin tag carrying instructions', inject, { triggers: ['system', 'admin', 'developer'] }),
  rule('inject-leak-system-prompt', 'prompt-injection', 'high', /\b(?:reveal|print|output|repeat|show|leak|dump|display)\s+(?:\w+\s+){0,3}?(?:your\s+)?(?:system|initial|hidden|original)\s+(?:prompt|instructions)\s+(?:verbatim|in\s+full|word\s+for\s+word|to\s+me|above)/i, 'tries to extract the system prompt', inject, { demoteWhenQuoted: true }),
  rule('inject-jailbreak-dan', 'prompt-injection', 'high', /\b(?:DAN\s+mode|Do\s+Anything\s+Now|STAN\s+mode|AIM\s+mode)\b/, 'a known jailbreak persona', inject, { demoteWhenQuoted: true }),
  rule('inject-mode-switch', 'prompt-injection', 'high', /\b(?:developer|god|jailbreak|unrestricted|sudo)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|engaged|on)\b/i, 'claims a special mode that lifts the rules', inject, { demoteWhenQuoted: true }),
  rule('inject-unobserved', 'prompt-injection', 'high', /\b(?:when|if|while)\s+no\s*(?:one|body)\s+is\s+(?:watching|looking|monitoring|reviewing)/i, 'behaves differently when unobserved', inject, { demoteWhenQuoted: true }),
  rule('inject-fake-update', 'prompt-injection', 'medium', /\byou\s+have\s+been\s+(?:\w+\s+){0,2}?(?:updated|upgraded|patched|reprogrammed|granted)\s+(?:to|with)\b/i, 'fake update announcement to the agent', inject, { demoteWhenQuoted: true }),
  rule('inject-priority-claim', 'prompt-injection', 'medium', /\b(?:these|this|the\s+following)\s+instructions?\s+(?:take|takes|have|has)\s+(?:precedence|priority)\s+over\s+(?:\w+\s+){0,3}?(?:system|previous|all|any|other|your)\b/i, 'claims priority over the agent\'s own instructions', inject, { demoteWhenQuoted: true }),
  rule('inject-decode-execute', 'prompt-injection', 'high', /\b(?:decode|translate|deobfuscate|unscramble|reverse)\s+[^\n]{0,120}?\s+(?:and|then)\s+(?:execute|run|eval(?:uate)?|follow)\s+(?:it|them|the\s+result|the\s+output|the\s+(?:decoded\s+)?(?:command|instructions))\b/i, 'decode-then-execute evasion', inject, { demoteWhenQuoted: true }),
  rule('inject-hidden-comment', 'prompt-injection', 'high', new RegExp(`<!--(?![^>\\n]{0,20}skillgarden-ignore)[^>\\n]{0,300}?${HIDDEN_INSTRUCTION.source}`, 'i'), 'hidden HTML comment carrying instructions', inject),
  rule('inject-hidden-element', 'prompt-injection', 'high', /<\s*(?:div|span|p|section|font|small|details)\b[^>\n]{0,200}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|opacity\s*:\s*0(?:\.0+)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?)\s*;\s*background(?:-color)?\s*:\s*(?:white|#fff))/i, 'HTML element hidden from a human reader', inject, { triggers: ['display', 'visibility', 'font-size', 'opacity', 'color'] }),
  rule('inject-hidden-attribute', 'prompt-injection', 'low', /<\s*(?:div|span|p|section)\b[^>\n]{0,200}\s(?:hidden|aria-hidden\s*=\s*["']true["'])[\s>/]/i, 'hidden HTML element', inject, { triggers: ['hidden'] }),
  rule('inject-skip-confirmation', 'prompt-injection', 'medium', /\b(?:do\s+not|don't|never|without)\s+(?:ask(?:ing)?|prompt(?:ing)?|wait(?:ing)?)\s+(?:\w+\s+){0,2}?(?:for\s+)?(?:permission|confirmation|approval|consent)\s+(?:before|to|when)\s+(?:\w+\s+){0,3}?(?:delet|remov|send|upload|push|install|run|execut|modify|overwrit)/i, 'tells the agent to act without the user\'s approval', 'Keep the user in the loop for destructive or outbound actions.', { demoteWhenQuoted: true }),
  rule('inject-disable-safety-flag', 'prompt-injection', 'medium', /(?:--dangerously-skip-permissions|--dangerously-bypass-approvals-and-sandbox|\bbypassPermissions\b|--yolo\b|approval[_-]?policy\s*[=:]\s*["']?never)/i, 'runs an agent with its safety checks off', 'Do not disable the agent\'s permission prompts from a skill.'),
  rule('inject-tool-hijack', 'prompt-injection', 'medium', /\b(?:always|must)\s+(?:\w+\s+){0,2}?(?:call|use|invoke)\s+(?:the\s+)?[\w-]{2,40}\s+tool\s+(?:first\s+)?(?:before|instead\s+of)\s+(?:\w+\s+){0,2}?(?:any|every|all)\s+other/i, 'hijacks every tool call', inject, { demoteWhenQuoted: true }),
  rule('inject-educational-pretext', 'prompt-injection', 'low', /\bfor\s+(?:purely\s+)?educational\s+purposes?\s+only\b/i, 'an educational pretext, often used to excuse harmful output', inject),
];

const destructive: ThreatRule[] = [
  rule('destroy-rm-root', 'destructive', 'high', new RegExp(`${recursiveRm}(?:--no-preserve-root\\s+)?["']?/\\*?["']?${endOfArg}`), 'recursive delete of the root folder', destroy),
  rule('destroy-rm-system', 'destructive', 'high', new RegExp(`${recursiveRm}["']?/(?:etc|usr|var|bin|sbin|boot|lib|lib64|home|root|opt|srv|sys|dev|System|Users|Library|Applications)/?\\*?["']?${endOfArg}`), 'recursive delete of a system folder', destroy),
  rule('destroy-rm-home', 'destructive', 'high', new RegExp(`${recursiveRm}["']?${home}/?\\*?["']?${endOfArg}`), 'recursive delete of the home folder', destroy),
  rule('destroy-no-preserve-root', 'destructive', 'high', /--no-preserve-root\b/, 'deletes with the root safeguard off', destroy),
  rule('destroy-mkfs', 'destructive', 'high', /\bmkfs(?:\.\w{2,8})?\s+[^\n]{0,40}\/dev\//, 'formats a filesystem', destroy),
  rule('destroy-dd-disk', 'destructive', 'high', /\bdd\s+[^\n]{0,200}\bof=\/dev\/(?!null\b|zero\b|stdout\b|stderr\b|tty\b|fd\/)/, 'writes raw data over a device', destroy),
  rule('destroy-redirect-disk', 'destructive', 'high', />\s*\/dev\/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|disk\d|mmcblk\d|rdisk\d)/, 'overwrites a disk device', destroy, { triggers: ['/dev/'] }),
  rule('destroy-wipe', 'destructive', 'high', /\b(?:wipefs\s+(?:-\w+\s+){0,3}-a|shred\s+[^\n]{0,80}\/dev\/|diskutil\s+(?:eraseDisk|zeroDisk|secureErase)|format\s+[a-z]:\s+\/[qy])/i, 'wipes a disk', destroy),
  rule('destroy-fork-bomb', 'destructive', 'high', /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/, 'fork bomb', destroy),
  rule('destroy-find-delete-root', 'destructive', 'high', /\bfind\s+(?:\/|~|\$HOME)\s+[^\n]{0,160}(?:-delete\b|-exec\s+rm\s)/, 'deletes files found across the whole system or home', destroy),
  rule('destroy-rmtree-root', 'destructive', 'high', /\b(?:shutil\.rmtree|fs\.rmSync|fs\.rm|rimraf(?:\.sync)?)\s*\(\s*(?:["']\/["']|["']~["']|os\.path\.expanduser\(\s*["']~["']\s*\)|Path\.home\(\)|os\.homedir\(\))/, 'deletes the root or home folder from code', destroy),
  rule('destroy-system-file-overwrite', 'destructive', 'high', /(?:>>?|\btee\s+(?:-a\s+)?)\s*\/etc\/(?:passwd|shadow|group|gshadow|hosts|fstab|resolv\.conf)\b/, 'overwrites a core system file', destroy, { triggers: ['/etc/'] }),
  rule('destroy-etc-write', 'destructive', 'low', /(?:(?<![>\w&])>>?|\btee\s+(?:-a\s+)?)\s*\/etc\//, 'writes under /etc', 'Prefer a user-level config; if a system change is needed, say so to the user first.', { triggers: ['/etc/'] }),
  rule('destroy-truncate-system', 'destructive', 'medium', /\btruncate\s+-s\s*0\s+\/(?:etc|var\/log|usr)\b/, 'truncates system files', destroy),
  rule('destroy-log-tamper', 'destructive', 'medium', /(?:\bhistory\s+-c\b|\bunset\s+HISTFILE\b|\bHISTFILE=\/dev\/null|\bHISTSIZE=0\b|\brm\s+(?:-\w+\s+){0,3}\/var\/log\/|>\s*\/var\/log\/(?:auth|secure|syslog|messages|wtmp|btmp|lastlog))/, 'erases shell history or system logs', 'Covering tracks has no place in a skill; remove it.', { triggers: ['history', 'histfile', 'histsize=0', '/var/log/'] }),
  rule('destroy-force-push-main', 'destructive', 'medium', /\bgit\s+push\s+(?:[^\n]{0,80}\s)?(?:--force|-f)(?!-with-lease|-if-includes)\b[^\n]{0,80}\b(?:main|master)\b/, 'force-pushes over the main branch', 'Use --force-with-lease on a feature branch instead.'),
  rule('destroy-sql-drop', 'destructive', 'low', /\bDROP\s+(?:DATABASE|SCHEMA)\s+(?!IF\s+EXISTS\s+(?:test|tmp))/, 'drops a database', 'Make sure the skill asks before dropping data.'),
  rule('destroy-kill-all', 'destructive', 'medium', /\b(?:kill\s+-9\s+-1\b|killall5\b|pkill\s+-9\s+-u\s+root)/, 'kills every process', destroy),
  rule('destroy-chmod-root-recursive', 'destructive', 'high', /\bch(?:mod|own)\s+-R\s+\S{1,20}\s+["']?\/["']?(?=\s|$|;)/, 'changes ownership or mode of the whole file system', destroy),
];

const persistence: ThreatRule[] = [
  rule('persist-cron', 'persistence', 'medium', /(?:\bcrontab\s+(?:-e\b|-r\b|-u\s|[\w./~-]{1,80}\.(?:txt|cron)\b|-\s*$)|\|\s*crontab\s+-|\/etc\/cron\.(?:d|daily|hourly|weekly)\/|\/var\/spool\/cron|@reboot\s)/, 'installs a cron job', persist, { triggers: ['crontab', '/etc/cron.', '/var/spool/cron', '@reboot'] }),
  rule('persist-shell-rc-payload', 'persistence', 'high', new RegExp(`\\b(?:curl|wget|nc|base64|eval|python\\s+-c)\\b[^\\n]{0,200}(?:>>|\\btee\\s+-a)\\s*["']?${home}/\\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|config/fish/config\\.fish)`), 'plants a download or decoder in a shell start-up file', persist),
  rule('persist-shell-rc-append', 'persistence', 'low', new RegExp(`(?:>>|\\btee\\s+-a)\\s*["']?${home}/\\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|config/fish/config\\.fish)`), 'appends to a shell start-up file', 'Tell the user what will be added to their shell profile and why.'),
  rule('persist-authorized-keys-literal', 'persistence', 'high', /\bssh-(?:rsa|ed25519|dss|ecdsa-[\w-]{1,30})\s+AAAA[A-Za-z0-9+/]{40,}[^\n]{0,200}authorized_keys\b/, 'adds a hard-coded public key to authorized_keys (SSH backdoor)', persist),
  rule('persist-authorized-keys-write', 'persistence', 'medium', /(?:>>?|\btee\s+(?:-a\s+)?|\bcp\s+\S{1,200}\s+)\s*["']?\S{0,80}authorized_keys\b/, 'adds a key to authorized_keys', persist, { triggers: ['authorized_keys'] }),
  rule('persist-authorized-keys', 'persistence', 'low', /\bauthorized_keys\b/, 'mentions SSH authorized_keys', persist),
  rule('persist-systemd', 'persistence', 'medium', /(?:\bsystemctl\s+(?:--user\s+)?(?:enable|link)\b|\/etc\/systemd\/system\/[\w@.-]{1,80}\.(?:service|timer)|\.config\/systemd\/user\/[\w@.-]{1,80}\.(?:service|timer))/, 'installs or enables a systemd unit', persist),
  rule('persist-launchd', 'persistence', 'medium', /(?:\blaunchctl\s+(?:load|bootstrap|submit)\b|Library\/Launch(?:Agents|Daemons)\/)/, 'installs a macOS launch agent', persist),
  rule('persist-sudoers-write', 'persistence', 'high', /(?:>>?|\btee\s+(?:-a\s+)?)\s*\/etc\/sudoers(?:\.d\/\S{1,80})?\b/, 'writes to sudoers', persist, { triggers: ['/etc/sudoers'] }),
  rule('persist-sudoers', 'persistence', 'medium', /(?:\/etc\/sudoers\b|\bvisudo\b)/, 'touches sudoers', persist),
  rule('persist-git-hijack', 'persistence', 'high', /\bgit\s+config\s+--(?:global|system)\s+(?:core\.hooksPath|core\.sshCommand|core\.fsmonitor|core\.gitProxy|credential\.helper\s+["']?!|include\.path)\b/i, 'changes global git config to run code', persist),
  rule('persist-git-url-rewrite', 'persistence', 'medium', /\bgit\s+config\s+--(?:global|system)\s+url\.\S{1,200}\.insteadOf\b/i, 'rewrites git remote URLs globally', 'Check that the rewrite only maps a host to itself (https to ssh).'),
  rule('persist-git-global', 'persistence', 'low', /\bgit\s+config\s+--(?:global|system)\s+(?!user\.(?:name|email)\b)[\w.-]{3,60}/, 'changes global git config', 'Prefer repository-local git config from a skill.'),
  rule('persist-git-hook-write', 'persistence', 'medium', /(?:>>?|\btee\s+(?:-a\s+)?|\bcp\s+\S{1,200}\s+)\s*["']?\S{0,80}\.git\/hooks\/(?:pre|post)-[\w-]{3,30}\b/, 'installs a git hook', persist, { triggers: ['.git/hooks/'] }),
  rule('persist-agent-config-write', 'persistence', 'high', /(?:>>|\btee\s+-a\s+|\bsed\s+-i\S{0,10}\s[^\n]{0,120})\s*["']?[~\w./-]{0,80}(?:CLAUDE\.md|AGENTS\.md|\.cursorrules|\.clinerules|\.claude\/settings(?:\.local)?\.json|\.codex\/config\.toml|\.hermes\/(?:config\.yaml|SOUL\.md))\b/, 'writes into an agent\'s own instructions or settings (persists across sessions)', persist),
  rule('persist-rc-local', 'persistence', 'medium', /(?:\/etc\/rc\.local\b|\/etc\/init\.d\/[\w-]{1,60}|\bupdate-rc\.d\s|\/etc\/profile\.d\/[\w.-]{1,60}|(?:>>?|\btee\s+(?:-a\s+)?)\s*\/etc\/(?:profile|bash\.bashrc|environment)\b)/, 'installs a system start-up script', persist, { triggers: ['/etc/', 'update-rc.d'] }),
  rule('persist-ld-preload', 'persistence', 'high', /\/etc\/ld\.so\.preload\b/, 'preloads a library into every process', persist),
  rule('persist-ld-preload-env', 'persistence', 'low', /\b(?:export\s+)?LD_PRELOAD=\S/, 'preloads a library into a process', persist, { triggers: ['ld_preload='] }),
  rule('persist-windows-run-key', 'persistence', 'high', /\b(?:reg(?:\.exe)?\s+add|New-ItemProperty|Set-ItemProperty)\b[^\n]{0,200}\\CurrentVersion\\Run(?:Once)?\b/i, 'writes a Windows Run key (start-up persistence)', persist),
  rule('persist-windows-task', 'persistence', 'medium', /(?:\bschtasks(?:\.exe)?\s+\/create\b|\bRegister-ScheduledTask\b|Startup\\[\w .-]{1,80}\.(?:lnk|bat|vbs|ps1))/i, 'installs a Windows scheduled task or start-up item', persist),
  rule('persist-ssh-keygen-overwrite', 'persistence', 'low', /\bssh-keygen\s+[^\n]{0,120}-f\s+["']?(?:~|\$HOME)\/\.ssh\/id_/, 'generates a key in the user\'s SSH folder', persist),
  rule('persist-at-job', 'persistence', 'low', /\|\s*at\s+(?:now|midnight|noon|\d{1,2}:\d{2})\b/, 'schedules a delayed job with at', persist, { triggers: ['|'] }),
];

const network: ThreatRule[] = [
  rule('net-dev-tcp', 'network', 'high', /\/dev\/(?:tcp|udp)\/[\w.-]{1,100}\/\d{1,5}/, 'opens a raw socket through /dev/tcp (reverse shell)', net),
  rule('net-nc-exec', 'network', 'high', /(?:\b(?:nc|ncat|netcat)\b[^\n]{0,120}\s-[a-zA-Z]{0,5}[ec]\s+\/?(?:bin\/)?(?:ba|z)?sh\b|\b(?:nc|ncat|netcat)\b[^\n]{0,120}\|\s*\/bin\/(?:ba)?sh\b|\bmkfifo\b[^\n]{0,160}\b(?:nc|ncat|netcat)\b)/, 'netcat wired to a shell (reverse shell)', net),
  rule('net-nc-listen', 'network', 'medium', /\b(?:nc|ncat|netcat)\s+(?:-[a-zA-Z]{1,6}\s+){0,3}-[a-zA-Z]{0,5}l[a-zA-Z]{0,5}\b/, 'opens a netcat listener', net),
  rule('net-socat-exec', 'network', 'high', /\bsocat\b[^\n]{0,200}\b(?:exec|system):/i, 'socat wired to a program (shell over the network)', net),
  rule('net-script-reverse-shell', 'network', 'high', /(?:python[23]?\s+-c\s+["'][^\n]{0,40}import\s+(?:socket|pty)|socket\.socket\([^\n]{0,200}(?:subprocess|pty\.spawn|os\.dup2)|pty\.spawn\(\s*["']\/bin\/(?:ba)?sh|perl\s+-e\s+[^\n]{0,80}\bsocket\b|ruby\s+-rsocket\b|php\s+-r\s+[^\n]{0,80}fsockopen|New-Object\s+System\.Net\.Sockets\.TCPClient|require\(["']child_process["']\)[^\n]{0,200}net\.Socket)/i, 'script one-liner that looks like a reverse shell', net),
  rule('net-os-dup2', 'network', 'medium', /\bos\.dup2\(\s*\w{1,20}\.fileno\(\)/, 'redirects standard streams to a socket', net),
  rule('net-tunnel', 'network', 'medium', /(?:\bngrok\s+(?:http|tcp|tls|start)\b|\bngrok\.(?:io|app|com)\b|\blocaltunnel\b|\blt\s+--port\b|\bserveo\.net\b|\bcloudflared\s+tunnel\b|\bbore\s+local\b|\blocalhost\.run\b|\bpinggy\.io\b|\btailscale\s+funnel\b)/i, 'exposes a local port to the internet through a tunnel', net),
  rule('net-bind-all', 'network', 'low', /(?:\b0\.0\.0\.0:\d{2,5}\b|--(?:host|bind|listen|ip)[= ]0\.0\.0\.0\b|\bhost\s*=\s*["']0\.0\.0\.0["']|\bINADDR_ANY\b)/, 'listens on every network interface', net),
  rule('net-raw-ip-url', 'network', 'low', /\bhttps?:\/\/(?!127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.)\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\//, 'talks to a bare IP address', 'Name the host; a bare IP hides who is on the other end.'),
  rule('net-ssh-remote-forward', 'network', 'medium', /\bssh\b[^\n]{0,100}\s-R\s*(?:[*\w.]{1,40}:)?\d{1,5}:/, 'opens a reverse SSH tunnel', net),
  rule('net-firewall-off', 'network', 'medium', /(?:\bufw\s+disable\b|\biptables\s+-F\b|\bsetenforce\s+0\b|\bsystemctl\s+(?:stop|disable)\s+(?:firewalld|apparmor|ufw)\b|Set-MpPreference\s+-DisableRealtimeMonitoring\s+\$?true|netsh\s+advfirewall\s+set\s+\w{1,20}\s+state\s+off)/i, 'turns off a firewall or security module', net),
  rule('net-ssh-no-host-check', 'network', 'low', /StrictHostKeyChecking[= ]no\b/i, 'turns off SSH host key checking', net),
  rule('net-tls-off', 'network', 'low', /(?:\bcurl\s+[^\n]{0,80}(?:-k|--insecure)\b|\bwget\s+[^\n]{0,80}--no-check-certificate\b|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|verify\s*=\s*False\b)/, 'turns off TLS certificate checks', 'Keep certificate checks on; fix the trust store instead.'),
];

const obfuscation: ThreatRule[] = [
  rule('obf-base64-pipe-shell', 'obfuscation', 'high', new RegExp(`\\bbase64\\s+(?:-d|--decode|-D)\\b[^\\n]{0,80}\\|\\s*(?:sudo\\s+)?${shell}\\b|\\|\\s*base64\\s+(?:-d|--decode|-D)\\s*\\|\\s*(?:sudo\\s+)?${shell}\\b`), 'decodes base64 and runs it in a shell', obfusc, { triggers: ['base64'] }),
  rule('obf-eval-decoded', 'obfuscation', 'high', /\b(?:eval|exec|Function)\s*\(\s*(?:base64\.b64decode|atob|Buffer\.from\([^\n]{0,200}base64|codecs\.decode|bytes\.fromhex|zlib\.decompress|marshal\.loads|bytearray\.fromhex)/, 'evaluates decoded data', obfusc),
  rule('obf-eval-concat', 'obfuscation', 'high', /\b(?:eval|exec|Function)\s*\(\s*(?:["'`][^"'`\n]{0,200}["'`]\s*\+|\w{1,40}\s*\+\s*["'`]|["'`][^"'`\n]{0,200}["'`]\s*\.join\(|\[[^\]\n]{0,300}\]\.join\()/, 'evaluates a string assembled at run time', obfusc),
  rule('obf-shell-eval-decoded', 'obfuscation', 'high', /\beval\s+["']?\$\(\s*(?:echo|printf)\s[^\n]{0,200}\|\s*(?:base64|xxd|rev|tr|openssl)\b/, 'shell eval of a decoded string', obfusc),
  rule('obf-eval-string', 'obfuscation', 'low', /\b(?:eval|exec)\s*\(\s*["'`]/, 'eval of a string literal', obfusc),
  rule('obf-hex-chain', 'obfuscation', 'medium', /(?:\\x[0-9a-fA-F]{2}){8,}/, 'long run of hex escapes', obfusc, { triggers: ['\\x'] }),
  rule('obf-unicode-escape-chain', 'obfuscation', 'low', /(?:\\u[0-9a-fA-F]{4}){6,}/, 'long run of Unicode escapes', obfusc, { triggers: ['\\u'] }),
  rule('obf-char-code', 'obfuscation', 'medium', /(?:String\.fromCharCode\(\s*(?:0x)?[\da-fA-F]{2,3}\s*(?:,\s*(?:0x)?[\da-fA-F]{2,3}\s*){3,}|\bchr\(\s*\d{2,3}\s*\)\s*\+\s*chr\(\s*\d{2,3}\s*\)\s*\+\s*chr\(|\[char\]\s*\d{2,3}\s*\+\s*\[char\])/, 'builds a string from character codes', obfusc),
  rule('obf-printf-hex-shell', 'obfuscation', 'high', new RegExp(`\\b(?:printf|echo\\s+-e)\\s+["']?(?:\\\\x[0-9a-fA-F]{2}|\\\\[0-7]{3}){3,}[^\\n]{0,200}\\|\\s*(?:sudo\\s+)?${shell}\\b`), 'runs escaped bytes in a shell', obfusc),
  rule('obf-xxd-shell', 'obfuscation', 'high', new RegExp(`\\b(?:xxd\\s+-r(?:\\s+-p)?|rev|openssl\\s+(?:enc\\s+)?-d)\\b[^\\n]{0,80}\\|\\s*(?:sudo\\s+)?${shell}\\b`), 'decodes or reverses text and runs it in a shell', obfusc),
  rule('obf-echo-pipe-shell', 'obfuscation', 'medium', new RegExp(`\\becho\\s+[^\\n|]{0,300}\\|\\s*(?:sudo\\s+)?${shell}\\b(?!\\s*-n)`), 'pipes text into a shell', obfusc),
  rule('obf-python-dynamic-import', 'obfuscation', 'medium', /(?:getattr\(\s*__builtins__|__import__\(\s*["'](?:os|subprocess|socket|pty|ctypes)["']\s*\)|globals\(\)\[["']__builtins__)/, 'reaches dangerous modules dynamically', obfusc),
  rule('obf-compile-exec', 'obfuscation', 'medium', /\bcompile\s*\([^\n]{0,200},\s*["']exec["']\s*\)/, 'compiles a string as code', obfusc),
  rule('obf-powershell-encoded', 'obfuscation', 'high', /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}\s-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{20,}/i, 'runs a base64-encoded PowerShell command', obfusc),
  rule('obf-ifs-evasion', 'obfuscation', 'medium', /(?:\$\{IFS\}|\$IFS\$9)/, 'hides spaces with $IFS (filter evasion)', obfusc),
  rule('obf-string-reversal', 'obfuscation', 'low', /(?:\[::-1\]\s*\)|\.split\(["']{2}\)\.reverse\(\)\.join\(["']{2}\))/, 'reverses a string (possible hidden payload)', obfusc),
  rule('obf-long-base64', 'obfuscation', 'low', /(?<![\w+/=-])(?:[A-Za-z0-9+/]{4}){60,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?(?![\w+/=-])/, 'long base64 blob', 'Ship binary data as a file under assets/, not inline.', { base64Run: 240 }),
];

const supplyChain: ThreatRule[] = [
  rule('supply-curl-pipe-shell', 'supply-chain', 'medium', new RegExp(`\\b(?:curl|wget)\\b[^\\n|]{0,300}\\|\\s*(?:sudo\\s+(?:-\\w+\\s+){0,3})?(?:env\\s+[^\\n|]{0,80})?${shell}\\b`), 'pipes a download straight into a shell', supply),
  rule('supply-curl-pipe-shell-insecure', 'supply-chain', 'high', new RegExp(`\\b(?:curl|wget)\\b[^\\n|]{0,300}(?:http:\\/\\/|https?:\\/\\/\\d{1,3}(?:\\.\\d{1,3}){3}|\\s-k\\b|--insecure|--no-check-certificate)[^\\n|]{0,200}\\|\\s*(?:sudo\\s+)?${shell}\\b`), 'pipes an unauthenticated download (plain http, bare IP or TLS off) into a shell', supply),
  rule('supply-shell-subst-download', 'supply-chain', 'medium', new RegExp(`\\b${shell}\\s+(?:-c\\s+["']?\\$\\(|<\\(\\s*)(?:curl|wget)\\b|\\bsource\\s+<\\(\\s*(?:curl|wget)\\b|\\.\\s+<\\(\\s*(?:curl|wget)\\b`), 'runs a downloaded script through a substitution', supply, { triggers: ['curl', 'wget'] }),
  rule('supply-curl-pipe-interpreter', 'supply-chain', 'medium', /\b(?:curl|wget)\b[^\n|]{0,300}\|\s*(?:sudo\s+)?(?:python[23]?|node|perl|ruby|php)\b(?!\s+-m\s+json\.tool)/, 'pipes a download into an interpreter', supply),
  rule('supply-powershell-download-exec', 'supply-chain', 'medium', /(?:\b(?:iex|Invoke-Expression)\b[^\n]{0,200}(?:DownloadString|Invoke-WebRequest|\biwr\b|\birm\b|Net\.WebClient)|\b(?:irm|iwr|Invoke-RestMethod|Invoke-WebRequest)\s[^\n]{0,200}\|\s*(?:iex|Invoke-Expression)\b)/i, 'downloads and runs a PowerShell script', supply),
  rule('supply-download-chmod-run', 'supply-chain', 'medium', /\b(?:curl|wget)\b[^\n]{0,200}(?:&&|;)\s*chmod\s+(?:\+x|[0-7]?7[0-7]{2})\s+[^\n]{0,120}(?:&&|;)\s*(?:sudo\s+)?\.\//, 'downloads a program, marks it executable and runs it', supply),
  rule('supply-pip-url', 'supply-chain', 'medium', /\b(?:pip3?|uv\s+pip|python3?\s+-m\s+pip)\s+install\s+(?:[^\n]{0,120}\s)?["']?(?:git\+https?:\/\/|https?:\/\/)(?![^\s"']{0,200}(?:@[0-9a-f]{40}\b|#sha256=|==))/, 'installs an unpinned Python package from a URL', supply),
  rule('supply-npm-url', 'supply-chain', 'medium', /\b(?:npm|pnpm|yarn|bun)\s+(?:install|i|add)\s+(?:[^\n]{0,120}\s)?["']?(?:https?:\/\/|git\+|github:|git:\/\/)(?![^\s"']{0,200}#[0-9a-f]{40}\b)/, 'installs an unpinned JavaScript package from a URL', supply),
  rule('supply-git-clone-run', 'supply-chain', 'low', /\bgit\s+clone\s+[^\n]{0,200}(?:&&|;)\s*(?:cd\s+[^\n;&]{1,80}(?:&&|;)\s*)?(?:\.\/[\w.-]{1,60}|(?:ba)?sh\s+[\w./-]{1,60}|make(?:\s+install)?\b|python3?\s+(?:setup\.py|[\w./-]{1,60}\.py)|npm\s+(?:install|run|start)|pip3?\s+install)/, 'clones a repository and runs its code', 'Pin the clone to a commit (git checkout <sha>) before running anything from it.'),
  rule('supply-pip-extra-index', 'supply-chain', 'low', /--(?:extra-)?index-url\s+["']?https?:\/\/(?!pypi\.org|download\.pytorch\.org|pypi\.nvidia\.com|test\.pypi\.org)/, 'installs from a non-default package index (dependency confusion)', supply),
  rule('supply-pip-trusted-host', 'supply-chain', 'medium', /--trusted-host\s+\S/, 'turns off TLS checks for a package index', supply),
  rule('supply-npx-yes', 'supply-chain', 'low', /\bnpx\s+(?:-y|--yes)\s+(?!@?[\w./-]{1,80}@\d)/, 'runs an unpinned npm package without asking', supply),
  rule('supply-unsafe-registry', 'supply-chain', 'medium', /\bnpm\s+config\s+set\s+registry\s+https?:\/\/(?!registry\.npmjs\.org)/, 'switches the npm registry', supply),
  rule('supply-docker-pipe', 'supply-chain', 'medium', new RegExp(`\\bdocker\\s+run\\s+[^\\n]{0,200}\\|\\s*${shell}\\b`), 'pipes container output into a shell', supply),
];

const privilege: ThreatRule[] = [
  rule('priv-nopasswd', 'privilege-escalation', 'high', /\bNOPASSWD\s*:/, 'passwordless sudo entry', priv),
  rule('priv-setuid-chmod', 'privilege-escalation', 'high', /\bchmod\s+(?:-R\s+)?(?:[ugoa]{0,3}\+[rwx]{0,3}s[rwx]{0,3}|0?[2467][0-7]{3})\s/, 'sets the setuid or setgid bit', priv),
  rule('priv-setuid-call', 'privilege-escalation', 'medium', /\bset(?:e?[ug]id|re[ug]id|res[ug]id)\s*\(\s*0\s*[,)]/, 'switches to root in code', priv),
  rule('priv-chmod-777-system', 'privilege-escalation', 'high', /\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx|ugo\+rwx)\s+["']?\/(?:etc|usr|bin|sbin|var|home|root|opt|lib|boot|tmp\b|\*|(?=\s|$))/, 'makes a system path world-writable', priv),
  rule('priv-chmod-777', 'privilege-escalation', 'low', /\bchmod\s+(?:-R\s+)?(?:0?777|a\+rwx)\b/, 'makes a path world-writable', 'Grant only the permissions needed (e.g. 755 or 644).'),
  rule('priv-capabilities', 'privilege-escalation', 'high', /\bsetcap\s+[^\n]{0,80}cap_(?:setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace)\b/i, 'grants a root-equivalent capability', priv),
  rule('priv-shadow-read', 'privilege-escalation', 'high', /\b(?:cat|cp|less|more|head|tail|scp|curl|base64|unshadow|john|hashcat|open|read_text)\b[^\n]{0,80}\/etc\/(?:shadow|gshadow)\b/, 'reads the password hash file', priv),
  rule('priv-shadow-mention', 'privilege-escalation', 'low', /\/etc\/(?:shadow|gshadow)\b/, 'names the password hash file', priv),
  rule('priv-passwd-file', 'privilege-escalation', 'low', /\/etc\/passwd\b/, 'reads the user database', priv),
  rule('priv-sudo-shell', 'privilege-escalation', 'medium', /\bsudo\s+(?:-\w\s+){0,2}(?:su\b|-i\b|-s\b|bash\b|sh\b|zsh\b)/, 'opens a root shell', priv),
  rule('priv-sudo', 'privilege-escalation', 'low', /\bsudo\s+(?!-[lkvn]\b)[\w/-]/, 'runs a command as root', 'Say why root is needed, or find a user-level install.'),
  rule('priv-docker-host', 'privilege-escalation', 'medium', /(?:\bdocker\s+run\b[^\n]{0,200}(?:--privileged\b|-v\s+\/:\/|--pid[= ]host\b|--net(?:work)?[= ]host\b[^\n]{0,80}--privileged)|-v\s+\/var\/run\/docker\.sock:)/, 'gives a container control of the host', priv),
  rule('priv-group-add', 'privilege-escalation', 'medium', /\b(?:usermod\s+-a?G\s+(?:sudo|wheel|root|admin|docker)\b|gpasswd\s+-a\s+\S{1,40}\s+(?:sudo|wheel|docker)\b|dseditgroup\s+[^\n]{0,80}\badmin\b)/, 'adds a user to an administrator group', priv),
  rule('priv-useradd-uid0', 'privilege-escalation', 'high', /\buseradd\s+[^\n]{0,80}-(?:o\s+-u\s*0|u\s*0\s+-o)\b/, 'creates a second root account', priv),
  rule('priv-polkit-rule', 'privilege-escalation', 'medium', /\/etc\/polkit-1\/rules\.d\//, 'writes a polkit rule', priv),
];

const credentials: ThreatRule[] = [
  rule('cred-private-key', 'credential-exposure', 'high', /-----BEGIN\s(?:RSA\s|EC\s|DSA\s|OPENSSH\s|ENCRYPTED\s|PGP\s)?PRIVATE\sKEY(?:\sBLOCK)?-----/, 'private key block', cred),
  rule('cred-aws-access-key', 'credential-exposure', 'high', /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/, 'AWS access key id', cred, { accept: (m) => !/EXAMPLE|XXXX|0000/.test(m) }),
  rule('cred-aws-secret-key', 'credential-exposure', 'high', /\baws_secret_access_key\s*[=:]\s*["']?[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])/i, 'AWS secret access key', cred, { accept: (m) => !/EXAMPLE/.test(m) }),
  rule('cred-github-token', 'credential-exposure', 'high', /\b(?:gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9_]{82})\b/, 'GitHub token', cred, { accept: looksRandom }),
  rule('cred-gitlab-token', 'credential-exposure', 'high', /\bglpat-[A-Za-z0-9_-]{20}\b/, 'GitLab token', cred, { accept: looksRandom }),
  rule('cred-slack-token', 'credential-exposure', 'high', /\bxox[abposr]-(?:\d{6,15}-){1,3}[A-Za-z0-9-]{10,80}/, 'Slack token', cred, { accept: (m) => !/x{6}|X{6}|0{6}/.test(m) }),
  rule('cred-slack-webhook', 'credential-exposure', 'high', /https:\/\/hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{20,30}/, 'Slack incoming-webhook URL', cred, { accept: (m) => !/X{6}|x{6}/.test(m) }),
  rule('cred-openai-key', 'credential-exposure', 'high', /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,200}\b/, 'OpenAI API key', cred, { accept: (m) => !m.startsWith('sk-ant-') && looksRandom(m) }),
  rule('cred-anthropic-key', 'credential-exposure', 'high', /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,120}/, 'Anthropic API key', cred, { accept: looksRandom }),
  rule('cred-google-api-key', 'credential-exposure', 'high', /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/, 'Google API key', cred, { accept: looksRandom }),
  rule('cred-stripe-live', 'credential-exposure', 'high', /\b(?:sk|rk)_live_[0-9a-zA-Z]{24,99}\b/, 'Stripe live secret key', cred, { accept: looksRandom }),
  rule('cred-stripe-test', 'credential-exposure', 'low', /\b(?:sk|rk)_test_[0-9a-zA-Z]{24,99}\b/, 'Stripe test key', cred, { accept: looksRandom }),
  rule('cred-huggingface-token', 'credential-exposure', 'high', /\bhf_[A-Za-z0-9]{34,40}\b/, 'Hugging Face token', cred, { accept: looksRandom }),
  rule('cred-npm-token', 'credential-exposure', 'high', /\bnpm_[A-Za-z0-9]{36}\b/, 'npm token', cred, { accept: looksRandom }),
  rule('cred-sendgrid-key', 'credential-exposure', 'high', /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/, 'SendGrid API key', cred, { accept: looksRandom }),
  rule('cred-telegram-bot-token', 'credential-exposure', 'high', /(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{33}\b/, 'Telegram bot token', cred, { accept: (m) => looksRandom(m.slice(m.indexOf(':') + 3)), triggers: [':aa'] }),
  rule('cred-discord-webhook', 'credential-exposure', 'high', /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/[A-Za-z0-9_-]{60,70}/, 'Discord webhook URL', cred, { accept: looksRandom }),
  rule('cred-jwt', 'credential-exposure', 'medium', /\beyJ[A-Za-z0-9_-]{10,500}\.eyJ[A-Za-z0-9_-]{10,2000}\.[A-Za-z0-9_-]{10,1000}/, 'JSON Web Token', 'If this is a real token, remove and revoke it; if it is an example, suppress with a reason.'),
  rule('cred-generic-assignment', 'credential-exposure', 'medium', /\b(?:api[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|password|passwd)["']?\s*[=:]\s*["'][A-Za-z0-9+/=_.-]{24,200}["']/i, 'hard-coded secret', cred, { accept: (m) => looksRandom(m.replace(/^[^"']{0,80}["']/, '').replace(/["']$/, '')) }),
  rule('cred-url-password', 'credential-exposure', 'low', /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@"'`]{1,60}:[^\s:/@"'`$<{]{3,80}@[\w.-]{1,200}/i, 'password in a URL', cred, { accept: (m) => !/:(?:password|pass|pwd|secret|changeme|xxx+|\*+)@/i.test(m), triggers: ['://'] }),
];

const execution: ThreatRule[] = [
  rule('exec-os-system', 'execution', 'low', /\bos\.(?:system|popen)\s*\(/, 'runs a shell command from Python', 'Prefer subprocess with an argument list.'),
  rule('exec-shell-true', 'execution', 'low', /\bsubprocess\.\w{2,15}\([^\n]{0,200}shell\s*=\s*True/, 'subprocess with shell=True', 'Pass an argument list and drop shell=True.'),
  rule('exec-child-process', 'execution', 'low', /\b(?:child_process\.)?(?:execSync|exec)\s*\(\s*`[^`\n]{0,200}\$\{/, 'runs an interpolated shell command from JavaScript', 'Use execFile with an argument array.', { triggers: ['exec'] }),
  rule('exec-runtime-exec', 'execution', 'low', /\bRuntime\.getRuntime\(\)\.exec\(/, 'Java Runtime.exec', 'Use ProcessBuilder with an argument list.'),
];

const traversal: ThreatRule[] = [
  rule('traverse-deep-parent', 'traversal', 'low', /(?:\.\.[/\\]){4,}/, 'climbs four or more folders up', 'Keep paths inside the skill folder or the project.', { triggers: ['..'] }),
  rule('traverse-dev-shm', 'traversal', 'low', /\/dev\/shm\/\S/, 'stages files in shared memory', 'Use a temporary folder the user can see.'),
];

const mining: ThreatRule[] = [
  rule('mine-miner', 'mining', 'high', /\b(?:xmrig|cpuminer|minerd|cgminer|bfgminer|ethminer|nbminer|lolminer|phoenixminer|t-rex)\b(?![\w-]{0,3}\.(?:md|txt))/i, 'runs a cryptocurrency miner', 'Remove the miner.'),
  rule('mine-stratum', 'mining', 'high', /\bstratum\+(?:tcp|ssl|tls):\/\//i, 'connects to a mining pool', 'Remove the miner.'),
  rule('mine-pool-host', 'mining', 'high', /\b(?:minexmr|nanopool|f2pool|2miners|hashvault|supportxmr|moneroocean|coinhive|cryptonight)\b/i, 'names a mining pool or miner', 'Remove the miner.'),
];

/** Every line-matched rule, in report order. */
export const THREAT_RULES: readonly ThreatRule[] = [
  ...exfiltration,
  ...injection,
  ...destructive,
  ...persistence,
  ...network,
  ...obfuscation,
  ...supplyChain,
  ...privilege,
  ...credentials,
  ...execution,
  ...traversal,
  ...mining,
];
