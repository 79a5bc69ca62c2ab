// embed.js's client is served from a generated string (npm run gen:embed): it must be what the
// client's source makes now, or a change to src/embed/client.ts would never reach the sites.
import { describe, expect, it } from 'vitest';
import { embedClientCode } from '../../../scripts/gen-embed-client.ts';
import { EMBED_CLIENT } from '../../../src/server/domain/status-page/embed-client.gen.ts';

describe('embed client build', () => {
  it('the served client is the minified build of src/embed/client.ts (run npm run gen:embed)', () => {
    expect(EMBED_CLIENT).toBe(embedClientCode());
  });
});
