import type { Command } from '../context.js';
import { actCommands } from './acts.js';
import { logCommand } from './log.js';
import { manageCommand } from './manage.js';
import { rollbackCommand } from './rollback.js';
import { validateCommand } from './validate.js';

export const commands: readonly Command[] = [validateCommand, manageCommand, ...actCommands, logCommand, rollbackCommand];
