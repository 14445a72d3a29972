import type { Command } from '../context.js';
import { actCommands } from './acts.js';
import { curateCommand } from './curate.js';
import { demoCommand } from './demo.js';
import { detectCommand } from './detect.js';
import { listCommand, showCommand } from './list.js';
import { logCommand } from './log.js';
import { usageCommand } from './usage.js';
import { manageCommand } from './manage.js';
import { planCommand } from './plan.js';
import { proposalsCommand } from './proposals.js';
import { rollbackCommand } from './rollback.js';
import { runtimeCommands } from './runtime.js';
import { scanCommand } from './scan.js';
import { validateCommand } from './validate.js';

export const commands: readonly Command[] = [
  validateCommand,
  manageCommand,
  listCommand,
  showCommand,
  ...actCommands,
  logCommand,
  rollbackCommand,
  usageCommand,
  curateCommand,
  detectCommand,
  planCommand,
  proposalsCommand,
  scanCommand,
  ...runtimeCommands,
  demoCommand,
];
