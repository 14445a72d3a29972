import { describe, expect, it } from 'vitest';
import { Redactor, redactText } from '../../../src/core/privacy/redact.js';

describe('redaction of what sessions hold', () => {
  it.each([
    ['a GitHub token in a prompt', 'push with ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5 please', 'push with $GITHUB_TOKEN please'],
    ['a fine-grained GitHub token', `GH=github_pat_${'A1b2C3d4E5'.repeat(8)}xy`, 'GH=$GITHUB_TOKEN'],
    ['an OpenAI key in JSON', '{"api_key": "sk-proj-abcdefghijklmnopqrstuvwxyz123456"}', '{"api_key": "$OPENAI_API_KEY"}'],
    ['an AWS key id', 'AWS_ACCESS_KEY_ID=AKIAQWERTYUIOPASDFGH', 'AWS_ACCESS_KEY_ID=$AWS_ACCESS_KEY_ID'],
    [
      'docker login -p',
      'docker login -u alice -p hunter2secret reg.example.com',
      'docker login -u <user> -p $REGISTRY_PASSWORD reg.example.com',
    ],
    ['mysql -p glued', 'mysql -u root -pS3cretPass mydb', 'mysql -u root -p$MYSQL_PASSWORD mydb'],
    ['curl -u user:pass', 'curl -u bob:pa55word https://api.example.com', 'curl -u <user>:$PASSWORD https://api.example.com'],
    ['a URL with a password', 'git clone https://alice:tok3n@github.com/o/r.git', 'git clone https://<user>:$PASSWORD@github.com/o/r.git'],
    ['an Authorization header', 'curl -H "Authorization: Bearer abc123def" https://x', 'curl -H "Authorization: Bearer $TOKEN" https://x'],
    ['a .env assignment', 'export STRIPE_SECRET=whsec_123456789', 'export STRIPE_SECRET=$STRIPE_SECRET'],
    ['--password=', 'tool --password=topsecret --token $TOKEN', 'tool --password=$SECRET --token $TOKEN'],
    ['an e-mail address', 'mail alice.smith@example.com today', 'mail <email> today'],
    ['home folders', 'cat /home/alice/a.txt /Users/bob/b C:\\Users\\carol\\c', 'cat ~/a.txt ~/… ~\\c'],
    // The folders below a home name projects and clients: a file keeps its name, a folder none.
    [
      'the folders below a home',
      'Edit /home/alice/acme-contract/src/parser.ts, files in /home/alice/private-proj.',
      'Edit ~/…/parser.ts, files in ~/….',
    ],
    ['a path under ~ typed by a person', 'cat ~/.aws/credentials && cd ~/clients/acme', 'cat ~/… && cd ~/…'],
    // The folder of a SKILL.md is its skill's name, and reading it is how a session loads the skill.
    ['a SKILL.md below a home', "sed -n '1,200p' /home/alice/.codex/skills/pdf/SKILL.md", "sed -n '1,200p' ~/…/pdf/SKILL.md"],
    ['a Claude Code project folder', '~/.claude/projects/-home-alice-src-app/1.jsonl', '~/…/1.jsonl'],
    ['a private key block', '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----', '<private key>'],
  ])('replaces %s', (_, input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    ['mkdir -p and ls -p', 'mkdir -p src/lib && ls -p'],
    ['shell redirections', 'npm version 2.4.0 2>&1 | tee log'],
    ['a kube context', 'kubectl --context prod apply -f deploy.yaml'],
    ['a variable already', 'password: "$DB_PASSWORD" and --token ${TOKEN}'],
    ['a git remote', 'git@github.com:owner/repo.git'],
    ['--password-stdin', 'echo "$PW" | docker login ghcr.io -u "$USER" --password-stdin'],
    ['plain prose', 'Fix the failing tests in the parser module.'],
    ['booleans and ports', 'auth: true, token: null, password: 5432'],
  ])('keeps %s', (_, input) => {
    expect(redactText(input)).toBe(input);
  });

  it("replaces this machine's home folder wherever it is", () => {
    const redactor = new Redactor({ homes: ['/var/lib/jenkins'] });
    expect(redactor.text('cd /var/lib/jenkins/workspace/app')).toBe('cd ~/…');
    expect(redactor.text('cat /var/lib/jenkins/notes.md')).toBe('cat ~/notes.md');
  });

  it('redacts every string of a tool call, keeping its keys', () => {
    const value = new Redactor().value({ command: 'curl -u a:b1c2d3 https://x', env: ['TOKEN=abc123456'], n: 3 });
    expect(value).toEqual({ command: 'curl -u <user>:$PASSWORD https://x', env: ['TOKEN=$TOKEN'], n: 3 });
  });
});
