// Runs the built indexer against a node until killed; the crash test kills it with SIGKILL at random points.
import { openDatabase } from '@explorer/db';
import {
  createDefinitions,
  createIndexer,
  createNodeClient,
  parseLabels,
  parsePools,
} from '../../dist/index.js';

const { NODE_URL, DATABASE_URL, DB_SCHEMA, DEFINITIONS } = process.env;
const defs = JSON.parse(DEFINITIONS ?? '{"pools":[],"labels":[]}');
const sql = await openDatabase({ url: DATABASE_URL, schema: DB_SCHEMA, poolSize: 3 });
const indexer = createIndexer({
  sql,
  node: createNodeClient({ url: NODE_URL }),
  definitions: createDefinitions(parsePools(defs.pools), parseLabels(defs.labels)),
  batchTxTarget: 60,
  pollIntervalMs: 50,
});
// The previous child was killed a moment ago: PostgreSQL may not have ended its backend yet, which
// still holds the writer advisory lock. Retry for a while rather than fail on that race.
const lockDeadline = Date.now() + 10_000;
for (;;) {
  try {
    await indexer.start();
    break;
  } catch (err) {
    if (err?.name !== 'IndexerLockedError' || Date.now() >= lockDeadline) throw err;
    await new Promise((r) => setTimeout(r, 100));
  }
}
process.stdout.write('started\n');
