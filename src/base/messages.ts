// Sentences of src/base: what its primitives refused, on which path, and why. Never a stack trace.

import type { UnsafeDeleteReason } from './unsafe-delete-error.js';

const UNSAFE_DELETE_WHY: Record<UnsafeDeleteReason, (minimumSegments: number) => string> = {
  root: () => 'it is the root of the file system',
  home: () => 'it is the home folder, or holds it',
  package: () => "it is rdw's package folder (the checkout), or holds it",
  'working-folder': () => 'it is the current working folder, or holds it',
  'too-short': (minimum) => `it has fewer than ${minimum} path segments, like the system folders /tmp and /home`,
  'not-owned': () => 'it lies outside every folder this process made with makeTemporaryFolder or registered with ownFolder',
};

export const baseMessages = {
  /** removeTree or ownFolder refused `refused` (the resolved form of `given`). */
  unsafeDelete: (refused: string, given: string, reason: UnsafeDeleteReason, minimumSegments: number) =>
    `Refused to delete ${refused}${given === refused ? '' : ` (given as ${given})`} with its contents: ${UNSAFE_DELETE_WHY[reason](minimumSegments)}.`,
};
