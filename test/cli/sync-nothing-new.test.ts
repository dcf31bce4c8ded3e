// The sync's "nothing new" line says what was listed: an empty listing is not "all 0 listed releases are in the
// catalog" (a second server's adversary, session 35).

import { describe, expect, it } from 'vitest';
import { syncMessages } from '../../src/cli/messages.js';

describe('syncMessages.nothingNew', () => {
  it('names an empty listing as such, and counts a full one', () => {
    expect(syncMessages.nothingNew(0)).toBe('nothing new: the listing named no release');
    expect(syncMessages.nothingNew(3)).toBe('nothing new: all 3 listed releases are in the catalog');
  });
});
