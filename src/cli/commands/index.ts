import type { Command } from '../context.js';
import { validateCommand } from './validate.js';

export const commands: readonly Command[] = [validateCommand];
