import { ChainMismatchError } from '../ingest/errors.js';

/** The stages of a sync's pipeline, over batches of consecutive blocks. */
export interface PipelineStages<Block extends { hash: string }, Prepared> {
  /** Reads the `count` blocks from `from`; `prevHash` is the hash of the block before them. */
  read(from: number, count: number, prevHash: string | null): Promise<Block[]>;
  /** Computes a batch's rows, from the writer's view of the chain (which batches before it already moved). */
  prepare(blocks: Block[]): Promise<Prepared>;
  /** Writes a prepared batch; it runs while the next batch is prepared and the one after is read. */
  write(prepared: Prepared, blocks: number): Promise<void>;
  /** How many blocks the next batch holds (it may follow what the batches so far held). */
  batchSize(): number;
  /** Whether to stop after the batch at hand (the indexer is stopping). */
  aborted(): boolean;
}

/** How a pipeline run ended. */
export interface PipelineResult {
  /**
   * A batch no longer extended the chain it was read from (ChainMismatchError from prepare or write): the node
   * reorganised meanwhile, or another writer moved the tip. What was written before it stays.
   */
  mismatch: boolean;
}

/**
 * Runs the sync's three stages over the heights `from`…`to`, overlapping: the node serves batch N+2 while batch
 * N+1 is prepared and batch N is written. A batch's write starts only once the write before it has ended, and
 * nothing is left running when this returns or throws. A failed write explains a failure of the batch prepared
 * meanwhile first (it may be why that batch cannot extend it).
 * @example await runPipeline(stages, 0, 999, null)
 */
export async function runPipeline<Block extends { hash: string }, Prepared>(
  stages: PipelineStages<Block, Prepared>,
  from: number,
  to: number,
  prevHash: string | null,
): Promise<PipelineResult> {
  let next = from;
  let pending: Promise<Block[]> | null = stages.read(
    next,
    Math.min(stages.batchSize(), to - next + 1),
    prevHash,
  );
  let writing: Promise<void> | null = null;
  /** Waits for the batch being written; false when it no longer extended the tip. */
  const settle = async (): Promise<boolean> => {
    if (!writing) return true;
    const w = writing;
    writing = null;
    try {
      await w;
      return true;
    } catch (err) {
      if (err instanceof ChainMismatchError) return false;
      throw err;
    }
  };
  try {
    while (pending) {
      const blocks: Block[] = await pending;
      const after = next + blocks.length;
      pending = null;
      if (after <= to && !stages.aborted()) {
        const count = Math.min(stages.batchSize(), to - after + 1);
        pending = stages.read(after, count, blocks[blocks.length - 1]?.hash ?? null);
        // A rejected read ahead is handled when it is awaited; until then it must not count as unhandled.
        pending.catch(() => {});
      }
      let prepared: Prepared;
      try {
        prepared = await stages.prepare(blocks);
      } catch (err) {
        if (!(await settle())) return { mismatch: true };
        if (err instanceof ChainMismatchError) return { mismatch: true };
        throw err;
      }
      if (!(await settle())) return { mismatch: true };
      writing = stages.write(prepared, blocks.length);
      writing.catch(() => {});
      next = after;
      if (stages.aborted()) break;
    }
    return { mismatch: !(await settle()) };
  } finally {
    // Never leave a write, or a read ahead, running behind an error.
    await (writing as Promise<void> | null)?.catch(() => {});
    await (pending as Promise<Block[]> | null)?.catch(() => {});
  }
}
