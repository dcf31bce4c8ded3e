// The registry of `rdw` commands, in the order `rdw --help` lists them.

import type { Command } from '../command.js';
import { studyCommand } from './study.js';

export const COMMANDS: readonly Command[] = [studyCommand];
