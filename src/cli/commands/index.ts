// The registry of `rdw` commands, in the order `rdw --help` lists them.

import type { Command } from '../command.js';
import { demoCommand } from './demo.js';
import { mockCommand } from './mock.js';
import { releasesCommand } from './releases.js';
import { pullCommand } from './pull.js';
import { syncCommand } from './sync.js';
import { lsCommand } from './ls.js';
import { verifyCommand } from './verify.js';
import { gcCommand } from './gc.js';
import { sqlCommand } from './sql.js';
import { exportCommand } from './export.js';
import { researchCommand } from './research.js';
import { liveCommand } from './live.js';
import { studyCommand } from './study.js';
import { lockCommand } from './lock.js';
import { reproduceCommand } from './reproduce.js';
import { kernelCommand } from './kernel.js';
import { doctorCommand } from './doctor.js';
import { openapiCommand } from './openapi.js';

export const COMMANDS: readonly Command[] = [
  demoCommand,
  mockCommand,
  releasesCommand,
  pullCommand,
  syncCommand,
  lsCommand,
  verifyCommand,
  gcCommand,
  sqlCommand,
  exportCommand,
  researchCommand,
  liveCommand,
  studyCommand,
  lockCommand,
  reproduceCommand,
  kernelCommand,
  doctorCommand,
  openapiCommand,
];
