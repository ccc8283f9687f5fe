import { BadRequestError } from '@explorer/core';
import {
  type DeliveryListing,
  insertWebhook,
  isWebhookId,
  listWebhookDeliveries,
  listWebhooks,
  parseWebhookInput,
  removeWebhook,
  type WebhookListing,
} from '@explorer/db';
import type { Command } from 'commander';
import { settingOption } from '../config/docs.js';
import type { CommandContext } from './context.js';
import { type DbFlags, shortTime, table, withDatabase } from './database.js';

/** Longest delivery log one `webhooks deliveries` prints. */
const MAX_LIMIT = 1_000;

const collect = (value: string, previous: string[]) => [...previous, value];

function webhookTable(rows: WebhookListing[]): string[] {
  return table([
    ['ID', 'URL', 'TOPICS', 'ADDRESSES', 'CREATED', 'REMOVED'],
    ...rows.map((r) => [
      r.id,
      r.url,
      r.topics.join(','),
      String(r.addresses.length),
      shortTime(r.createdAt),
      r.removedAt ? shortTime(r.removedAt) : '-',
    ]),
  ]);
}

function deliveryTable(rows: DeliveryListing[]): string[] {
  return table([
    ['ID', 'WEBHOOK', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'HTTP', 'CREATED', 'NEXT/DONE', 'LAST ERROR'],
    ...rows.map((r) => [
      r.id,
      r.webhookId,
      r.eventId,
      r.topic,
      r.status,
      String(r.attempts),
      r.lastStatus === null ? '-' : String(r.lastStatus),
      shortTime(r.createdAt),
      r.nextAttemptAt ? shortTime(r.nextAttemptAt) : r.finishedAt ? shortTime(r.finishedAt) : '-',
      r.lastError ?? '-',
    ]),
  ]);
}

/**
 * Registers `webhooks add|list|remove|deliveries`: operator-managed endpoints that receive signed POSTs of
 * live events (see docs/webhooks.md).
 * @example explorer-server webhooks add https://example.org/hook --events block,address --address prl1p…
 */
export function registerWebhooks(program: Command, ctx: CommandContext): void {
  const webhooks = program
    .command('webhooks')
    .description('manage webhooks: signed POSTs of live events (add, list, remove, deliveries)');
  const dataDir = settingOption('dataDir');
  const refuse = (command: string, problem: string) => {
    ctx.stderr(`explorer-server: webhooks ${command}: ${problem}`);
    ctx.exit(2);
  };

  webhooks
    .command('add')
    .description('add a webhook and print its signing secret once')
    .argument('<url>', 'the http:// or https:// URL deliveries are POSTed to')
    .option(
      '--events <topics>',
      'event topics, comma-separated: block, reorg, mempool, address (default block,reorg)',
    )
    .option(
      '--address <address>',
      'an address whose activity to deliver (repeatable, or a comma list)',
      collect,
      [],
    )
    .option('--json', 'print {id, url, topics, addresses, createdAt, removedAt, secret} as JSON')
    .option(...dataDir)
    .action(async (url: string, flags: DbFlags & { events?: string; address: string[]; json?: boolean }) => {
      let input: ReturnType<typeof parseWebhookInput>;
      try {
        input = parseWebhookInput({
          url,
          topics: flags.events ? [flags.events] : [],
          addresses: flags.address,
        });
      } catch (err) {
        if (!(err instanceof BadRequestError)) throw err;
        refuse('add', err.message);
        return;
      }
      await withDatabase(ctx, flags, 'webhooks add', async (sql) => {
        const hook = await insertWebhook(sql, input);
        if (flags.json) {
          ctx.stdout(JSON.stringify(hook));
          return 0;
        }
        const addresses = hook.addresses.length === 1 ? '1 address' : `${hook.addresses.length} addresses`;
        ctx.stdout(`added webhook ${hook.id} (${hook.url}; topics ${hook.topics.join(',')}; ${addresses}):`);
        ctx.stdout(hook.secret);
        ctx.stdout(
          'Verify each delivery’s Explorer-Signature with this secret (docs/webhooks.md); no command shows it again.',
        );
        return 0;
      });
    });

  webhooks
    .command('list')
    .description('list webhooks: id, URL, topics, addresses, created, removed (never the secret)')
    .option('--json', 'print one JSON array')
    .option(...dataDir)
    .action(async (flags: DbFlags & { json?: boolean }) => {
      await withDatabase(ctx, flags, 'webhooks list', async (sql) => {
        const rows = await listWebhooks(sql);
        if (flags.json) ctx.stdout(JSON.stringify(rows));
        else if (rows.length === 0) ctx.stdout('no webhooks');
        else for (const line of webhookTable(rows)) ctx.stdout(line);
        return 0;
      });
    });

  webhooks
    .command('remove')
    .description('remove a webhook: nothing more is queued for it and its pending deliveries fail')
    .argument('<id>', 'the webhook id (wh_…)')
    .option(...dataDir)
    .action(async (id: string, flags: DbFlags) => {
      if (!isWebhookId(id)) {
        refuse('remove', 'a webhook id is wh_ and 16 hex digits');
        return;
      }
      await withDatabase(ctx, flags, 'webhooks remove', async (sql) => {
        const { result, abandoned } = await removeWebhook(sql, id);
        if (result === 'unknown') {
          ctx.stderr(`explorer-server: webhooks remove: no webhook with id ${id}`);
          return 1;
        }
        if (result === 'already-removed') ctx.stdout(`webhook ${id} was already removed`);
        else
          ctx.stdout(
            `removed webhook ${id}; ${abandoned} pending ${abandoned === 1 ? 'delivery' : 'deliveries'} marked failed`,
          );
        return 0;
      });
    });

  webhooks
    .command('deliveries')
    .description('the delivery log, newest first: status, attempts, last HTTP status and error')
    .option('--webhook <id>', 'only this webhook’s deliveries')
    .option('--limit <n>', `deliveries to show (1-${MAX_LIMIT})`, '50')
    .option('--json', 'print one JSON array')
    .option(...dataDir)
    .action(async (flags: DbFlags & { webhook?: string; limit: string; json?: boolean }) => {
      if (flags.webhook !== undefined && !isWebhookId(flags.webhook)) {
        refuse('deliveries', '--webhook must be a webhook id: wh_ and 16 hex digits');
        return;
      }
      const limit = /^\d{1,4}$/.test(flags.limit) ? Number(flags.limit) : Number.NaN;
      if (!(limit >= 1 && limit <= MAX_LIMIT)) {
        refuse('deliveries', `--limit must be an integer from 1 to ${MAX_LIMIT}`);
        return;
      }
      await withDatabase(ctx, flags, 'webhooks deliveries', async (sql) => {
        const rows = await listWebhookDeliveries(sql, { webhookId: flags.webhook, limit });
        if (flags.json) ctx.stdout(JSON.stringify(rows));
        else if (rows.length === 0) ctx.stdout('no deliveries');
        else for (const line of deliveryTable(rows)) ctx.stdout(line);
        return 0;
      });
    });
}
