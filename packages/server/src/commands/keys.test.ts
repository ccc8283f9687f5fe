import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@explorer/db';
import { seedDataDir } from '@explorer/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../test-support/run-command.js';

const dataDir = await seedDataDir(mkdtempSync(join(tmpdir(), 'explorer-keys-')));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) =>
  runCommand(args, { EXPLORER_DATA_DIR: dataDir, ...env });

describe('explorer-server keys', () => {
  it('creates a key shown once, lists keys without secrets, and revokes by id', async () => {
    const created = await run(['keys', 'create', '--name', 'acme dashboard', '--tier', 'pro'], {
      RATE_LIMIT_TIERS: 'pro:6000',
    });
    expect(created.exits).toEqual([0]);
    expect(created.err).toEqual([]);
    const [, key] = created.out;
    expect(key).toMatch(/^exk_[a-z2-7]{10}_[a-z2-7]{38}$/);
    const id = key!.slice(4, 14);
    expect(created.out[0]).toBe(`created API key ${id} (name "acme dashboard", tier pro):`);

    const json = await run(['keys', 'create', '--name', 'other', '--json']);
    const other = JSON.parse(json.out[0]!);
    expect(other).toMatchObject({
      id: expect.any(String),
      key: expect.stringMatching(/^exk_/),
      tier: 'default',
    });

    const list = await run(['keys', 'list']);
    expect(list.exits).toEqual([0]);
    expect(list.out[0]).toMatch(/^ID\s+NAME\s+TIER\s+CREATED\s+REVOKED\s+LAST USED$/);
    expect(list.out).toHaveLength(3);
    expect(list.out[1]).toMatch(
      new RegExp(
        `^${id}\\s+acme dashboard\\s+pro\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+-\\s+never$`,
      ),
    );
    const listed = JSON.parse((await run(['keys', 'list', '--json'])).out[0]!);
    expect(listed.map((k: { id: string }) => k.id)).toEqual([id, other.id]);
    const everything = JSON.stringify(listed) + list.out.join('\n');
    expect(everything).not.toContain(key!.slice(15));
    expect(everything).not.toMatch(/[0-9a-f]{64}/);

    // Only the hash is in the database.
    const sql = await openDatabase({ dataDir });
    try {
      const rows = await sql.query<Record<string, unknown>>('SELECT * FROM api_keys', [], 'test.keys');
      expect(JSON.stringify(rows)).not.toContain(key!.slice(15));
    } finally {
      await sql.close();
    }

    const revoked = await run(['keys', 'revoke', id]);
    expect(revoked.exits).toEqual([0]);
    expect(revoked.out).toEqual([`revoked key ${id}; running servers refuse it within 30 s`]);
    expect((await run(['keys', 'revoke', id])).out).toEqual([`key ${id} was already revoked`]);
    const unknown = await run(['keys', 'revoke', 'aaaaaaaaaa']);
    expect(unknown.exits).toEqual([1]);
    expect(unknown.err).toEqual(['explorer-server: keys revoke: no key with id aaaaaaaaaa']);
    expect((await run(['keys', 'revoke', "x' OR 1=1"])).exits).toEqual([2]);
    expect((await run(['keys', 'list'])).out[1]).toMatch(/\d\d:\d\d:\d\d\s+never$/);
  });

  it('refuses bad names and tiers before touching the database', async () => {
    expect((await run(['keys', 'create', '--name', ' '])).exits).toEqual([2]);
    const tier = await run(['keys', 'create', '--name', 'n', '--tier', 'Gold Plan']);
    expect(tier.exits).toEqual([2]);
    expect(tier.err[0]).toMatch(/--tier must be/);
  });
});
