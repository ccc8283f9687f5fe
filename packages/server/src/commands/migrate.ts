import {
  INDEX_REBUILD,
  type MigrationPlan,
  migrate,
  pendingMigrations,
  RebuildRequiredError,
  type Sql,
} from '@explorer/db';
import type { Command } from 'commander';
import { settingOption } from '../config/docs.js';
import { openConfigured } from '../database/open.js';
import { type CommandContext, configOrExit, failed } from './context.js';

/** Options of `migrate`. */
interface MigrateFlags {
  dataDir?: string;
  rebuild?: boolean;
  dryRun?: boolean;
}

/**
 * Registers `migrate`: prints the pending migrations, then applies them and says what it applied. A migration
 * that rebuilds the chain index is applied to a database holding one only with `--rebuild`; without it the
 * command changes nothing and exits with 2, saying what to run.
 * @example registerMigrate(program, processContext())
 */
export function registerMigrate(program: Command, ctx: CommandContext): void {
  program
    .command('migrate')
    .description('print the pending database migrations, apply them and exit')
    .option(...settingOption('dataDir'))
    .option('--rebuild', 'agree to a migration that drops the chain index for the indexer to rebuild')
    .option('--dry-run', 'print the pending migrations and change nothing')
    .action(async (flags: MigrateFlags) => {
      const config = configOrExit(ctx, { dataDir: flags.dataDir });
      if (!config) return;
      try {
        const sql = await openConfigured(config, { command: 'migrate', migrate: false });
        try {
          await run(sql, flags, ctx);
        } finally {
          await sql.close();
        }
        ctx.exit(0);
      } catch (err) {
        failed(ctx, 'migrate', err);
      }
    });
}

/** Prints the plan, then applies it unless a dry run; a refused rebuild throws RebuildRequiredError. */
async function run(sql: Sql, flags: MigrateFlags, ctx: CommandContext): Promise<void> {
  const plan = await pendingMigrations(sql);
  if (plan.pending.length === 0) {
    ctx.stdout(`nothing to apply; schema at version ${plan.current}`);
    return;
  }
  for (const line of planLines(plan)) ctx.stdout(line);
  const rebuilding = plan.pending.find((m) => m.rebuildsIndex);
  const refused = rebuilding !== undefined && plan.index !== null && !flags.rebuild;
  if (flags.dryRun) {
    ctx.stdout(`dry run: nothing applied${refused ? '; applying it needs --rebuild' : ''}`);
    return;
  }
  // Refused before anything is applied: the migrations before the rebuilding one wait with it.
  if (refused) throw new RebuildRequiredError(rebuilding, plan.index!, plan.current);
  const result = await migrate(sql, undefined, { rebuild: flags.rebuild });
  ctx.stdout(`applied migrations ${result.applied.join(', ')}; schema at version ${result.current}`);
  if (rebuilding && plan.index && result.applied.includes(rebuilding.version))
    ctx.stdout(
      `the chain index is empty now: the next start of the indexer (explorer-server start or index) indexes ` +
        `the ${plan.index.blocks} blocks again from the node; follow it in /v1/status (indexer.progress) and ` +
        `in the log`,
    );
}

/** The plan as printed: each pending migration by version and name, and what a rebuild drops and keeps. */
function planLines(plan: MigrationPlan): string[] {
  const lines = [`schema at version ${plan.current}; to apply:`];
  for (const m of plan.pending) {
    if (!m.rebuildsIndex) {
      lines.push(`  ${m.version} ${m.name}`);
      continue;
    }
    if (!plan.index) {
      lines.push(`  ${m.version} ${m.name}: rebuilds the chain index (the database holds none yet)`);
      continue;
    }
    lines.push(
      `  ${m.version} ${m.name}: rebuilds the chain index from the node`,
      `    drops ${INDEX_REBUILD.drops}`,
      `    keeps ${INDEX_REBUILD.keeps}`,
      `    then the indexer indexes the chain again from the node, as in a first sync: ${plan.index.blocks} ` +
        `blocks (up to height ${plan.index.tipHeight}) to index again`,
    );
  }
  return lines;
}
