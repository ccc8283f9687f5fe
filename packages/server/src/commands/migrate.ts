import { migrate, openDatabase } from '@explorer/db';
import type { Command } from 'commander';
import { settingOption } from '../config-docs.js';
import { type CommandContext, configOrExit, failed } from './context.js';

/**
 * Registers `migrate`: applies pending migrations, prints what it applied, exits.
 * @example registerMigrate(program, processContext())
 */
export function registerMigrate(program: Command, ctx: CommandContext): void {
  program
    .command('migrate')
    .description('apply pending database migrations and exit')
    .option(...settingOption('dataDir'))
    .action(async (flags: { dataDir?: string }) => {
      const config = configOrExit(ctx, flags);
      if (!config) return;
      try {
        const sql = await openDatabase({
          url: config.databaseUrl ?? undefined,
          dataDir: config.dataDir,
          connectionTimeoutMs: config.dbConnectTimeoutMs,
          applicationName: 'explorer-server migrate',
          migrate: false,
        });
        try {
          const result = await migrate(sql);
          ctx.stdout(
            result.applied.length
              ? `applied migrations ${result.applied.join(', ')}; schema at version ${result.current}`
              : `nothing to apply; schema at version ${result.current}`,
          );
        } finally {
          await sql.close();
        }
        ctx.exit(0);
      } catch (err) {
        failed(ctx, 'migrate', err);
      }
    });
}
