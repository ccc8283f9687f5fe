import { generateApiKey, isApiKeyId, TIER_NAME } from '@explorer/core';
import { type ApiKeyListing, insertApiKey, listApiKeys, revokeApiKey } from '@explorer/db';
import type { Command } from 'commander';
import { settingOption } from '../config/docs.js';
import type { CommandContext } from './context.js';
import { type DbFlags, shortTime, table, withDatabase } from './database.js';

function keyTable(rows: ApiKeyListing[]): string[] {
  return table([
    ['ID', 'NAME', 'TIER', 'CREATED', 'REVOKED', 'LAST USED'],
    ...rows.map((r) => [
      r.id,
      r.name,
      r.tier,
      shortTime(r.createdAt),
      r.revokedAt ? shortTime(r.revokedAt) : '-',
      r.lastUsedAt ? shortTime(r.lastUsedAt) : 'never',
    ]),
  ]);
}

/**
 * Registers `keys create|list|revoke`: API keys in the database (only their SHA-256 is stored).
 * @example explorer-server keys create --name "acme dashboard" --tier pro
 */
export function registerKeys(program: Command, ctx: CommandContext): void {
  const keys = program.command('keys').description('manage API keys (create, list, revoke)');
  const dataDir = settingOption('dataDir');

  keys
    .command('create')
    .description('create a key and print it once (only its hash is stored)')
    .requiredOption('--name <name>', 'who or what the key is for')
    .option('--tier <tier>', 'rate-limit tier (RATE_LIMIT_TIERS), default "default"', 'default')
    .option('--json', 'print {id, key, name, tier, createdAt} as JSON')
    .option(...dataDir)
    .action(async (flags: DbFlags & { name: string; tier: string; json?: boolean }) => {
      const name = flags.name.trim();
      if (name === '' || name.length > 200 || [...name].some((ch) => ch < ' ' || ch === '\x7f')) {
        ctx.stderr('explorer-server: keys create: --name must be 1-200 printable characters');
        ctx.exit(2);
        return;
      }
      if (!TIER_NAME.test(flags.tier)) {
        ctx.stderr(
          'explorer-server: keys create: --tier must be 1-32 of a-z 0-9 _ - (starting with a letter or digit)',
        );
        ctx.exit(2);
        return;
      }
      await withDatabase(ctx, flags, 'keys create', async (sql, config) => {
        const created = generateApiKey();
        const stored = await insertApiKey(sql, {
          id: created.id,
          name,
          tier: flags.tier,
          keyHash: created.hash,
        });
        if (flags.json) {
          ctx.stdout(
            JSON.stringify({
              id: stored.id,
              key: created.key,
              name,
              tier: stored.tier,
              createdAt: stored.createdAt,
            }),
          );
          return 0;
        }
        ctx.stdout(`created API key ${stored.id} (name "${name}", tier ${stored.tier}):`);
        ctx.stdout(created.key);
        ctx.stdout('This is the only time the key is shown; the server keeps only its SHA-256 hash.');
        if (stored.tier !== 'default' && !Object.hasOwn(config.rateLimitTiers, stored.tier)) {
          ctx.stderr(
            `note: tier ${stored.tier} has no limit in RATE_LIMIT_TIERS here; it gets RATE_LIMIT_KEY (${config.rateLimitKey})`,
          );
        }
        return 0;
      });
    });

  keys
    .command('list')
    .description('list keys: id, name, tier, created, revoked, last used (never the key or its hash)')
    .option('--json', 'print one JSON array')
    .option(...dataDir)
    .action(async (flags: DbFlags & { json?: boolean }) => {
      await withDatabase(ctx, flags, 'keys list', async (sql) => {
        const rows = await listApiKeys(sql);
        if (flags.json) ctx.stdout(JSON.stringify(rows));
        else if (rows.length === 0) ctx.stdout('no API keys');
        else for (const line of keyTable(rows)) ctx.stdout(line);
        return 0;
      });
    });

  keys
    .command('revoke')
    .description('revoke a key by id; servers refuse it within API_KEY_CACHE_SECONDS')
    .argument('<id>', 'the key id (the part after exk_)')
    .option(...dataDir)
    .action(async (id: string, flags: DbFlags) => {
      if (!isApiKeyId(id)) {
        ctx.stderr('explorer-server: keys revoke: a key id is 10 characters of a-z and 2-7');
        ctx.exit(2);
        return;
      }
      await withDatabase(ctx, flags, 'keys revoke', async (sql, config) => {
        const result = await revokeApiKey(sql, id);
        if (result === 'unknown') {
          ctx.stderr(`explorer-server: keys revoke: no key with id ${id}`);
          return 1;
        }
        ctx.stdout(
          result === 'revoked'
            ? `revoked key ${id}; running servers refuse it within ${config.apiKeyCacheSeconds} s`
            : `key ${id} was already revoked`,
        );
        return 0;
      });
    });
}
