import type { Sql } from '@explorer/db';
import type { ServerConfig } from '../config/index.js';
import { openConfigured } from '../database/open.js';
import { type CommandContext, configOrExit, failed } from './context.js';

/** The flag of the commands that work on the database. */
export interface DbFlags {
  dataDir?: string;
}

/**
 * Runs an operator command (`keys create`, `webhooks add` …) on the configured database, migrated first, and
 * exits with the code `fn` returns; a failure is one line and exit code 1.
 * @example await withDatabase(ctx, flags, 'keys list', async (sql) => { …; return 0 })
 */
export async function withDatabase(
  ctx: CommandContext,
  flags: DbFlags,
  command: string,
  fn: (sql: Sql, config: ServerConfig) => Promise<number>,
): Promise<void> {
  const config = configOrExit(ctx, flags);
  if (!config) return;
  let code: number;
  try {
    // Applies pending migrations, so the command works on a database no server has started on yet.
    const sql = await openConfigured(config, { command, migrate: true });
    try {
      code = await fn(sql, config);
    } finally {
      await sql.close();
    }
  } catch (err) {
    failed(ctx, command, err);
    return;
  }
  ctx.exit(code);
}

/** Rows of cells as aligned text lines, the first row the header. */
export function table(cells: readonly (readonly string[])[]): string[] {
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) =>
    row
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
}

/** An ISO time as operators read it in tables: `2025-01-01 12:00:00`. */
export const shortTime = (iso: string): string => iso.slice(0, 19).replace('T', ' ');
