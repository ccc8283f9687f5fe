import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundleClient } from './test-support/bundle.js';

const BUDGET = 8192;

describe('the client bundle', () => {
  it(`stays within ${BUDGET} bytes min+gzip (ky excluded)`, async () => {
    const code = await bundleClient();
    const size = gzipSync(code, { level: 9 }).length;
    console.log(
      `@explorer/client bundle: ${code.length} bytes minified, ${size} bytes min+gzip (budget ${BUDGET})`,
    );
    expect(size).toBeLessThanOrEqual(BUDGET);
  });

  it('holds no Node-only import, no zod and no server code', async () => {
    const code = await bundleClient();
    expect(code).not.toMatch(/node:/);
    expect(code).not.toMatch(/\bzod\b|\bhono\b|@explorer\/core/);
    expect(code).toMatch(/from\s*"ky"/);
    const withKy = await bundleClient({ withKy: true });
    expect(withKy).not.toMatch(/node:|\bzod\b|\bhono\b|from\s*"ky"/);
  });
});
