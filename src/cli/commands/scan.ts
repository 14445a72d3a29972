import { join } from 'node:path';
import { renderScanText } from '../../core/scan/index.js';
import { readConfig } from '../../services/curator/read-library.js';
import { runScan } from '../../services/scan.js';
import { exitCodes, type Command } from '../context.js';

export const scanCommand: Command = {
  name: 'scan',
  summary: 'the security scan alone: exfiltration, injection, destructive commands, invisible Unicode, structure',
  usage: 'scan [PATH…]',
  options: {},
  async run({ io, global, positionals }) {
    const { config } = readConfig(global.repo);
    const paths = positionals.length > 0 ? positionals : [join(global.repo, config.skills_dir)];
    const report = await runScan(paths, { repo: io.cwd, config: config.scan, deep: positionals.length > 0 });
    io.stdout.write(global.json ? `${JSON.stringify(report, null, 2)}\n` : renderScanText(report));
    return Object.values(report.verdicts).includes('dangerous') ? exitCodes.findings : exitCodes.ok;
  },
};
