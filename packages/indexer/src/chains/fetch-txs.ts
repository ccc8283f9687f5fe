import { type NodeClient, NodeRpcError } from '../node-client.js';

/** Transactions asked for in one JSON-RPC batch. */
const TX_BATCH = 100;

/**
 * Asks the node `method [txid, ...params]` for every txid, in batches, and decodes each answer. A txid the node
 * answers with an error for (it left the mempool between the two calls) gets null, as does one `decode` refuses;
 * the node being unreachable is thrown.
 */
export async function fetchEachTx<A, T>(
  node: NodeClient,
  txids: readonly string[],
  method: string,
  params: readonly unknown[],
  decode: (answer: A, txid: string) => T | null,
): Promise<(T | null)[]> {
  const out: (T | null)[] = [];
  for (let i = 0; i < txids.length; i += TX_BATCH) {
    const part = txids.slice(i, i + TX_BATCH);
    let answers: (A | null)[];
    try {
      answers = await node.batch<A>(part.map((txid) => ({ method, params: [txid, ...params] })));
    } catch (err) {
      if (!(err instanceof NodeRpcError)) throw err;
      // One refused txid fails the whole batch: ask for each alone to tell which.
      answers = [];
      for (const txid of part) {
        answers.push(
          await node.call<A>(method, [txid, ...params]).catch((e: unknown) => {
            if (e instanceof NodeRpcError) return null;
            throw e;
          }),
        );
      }
    }
    answers.forEach((a, j) => {
      out.push(a === null ? null : decode(a, part[j]!));
    });
  }
  return out;
}
