import type { SyncProgress } from '@explorer/core';

/** The log line of a sync's progress, e.g. `syncing: 1200 of 4000 (30.0 %), 85 blocks/s, 690 tx/s, ETA 33 s`. */
export function progressLine(p: SyncProgress): string {
  const pct = p.nodeHeight > 0 ? ` (${p.percent.toFixed(1)} %)` : '';
  const eta = p.etaSeconds === null ? 'ETA unknown' : `ETA ${formatSeconds(p.etaSeconds)}`;
  return `syncing: ${p.height} of ${p.nodeHeight}${pct}, ${Math.round(p.blocksPerSecond)} blocks/s, ${Math.round(p.txPerSecond)} tx/s, ${eta}`;
}

/** A duration as the progress line says it: `33 s`, `12 min`, `1.5 h`. */
export const formatSeconds = (s: number) =>
  s < 90 ? `${Math.round(s)} s` : s < 5_400 ? `${Math.round(s / 60)} min` : `${(s / 3_600).toFixed(1)} h`;

/** A figure rounded to one decimal, as progress reports and logs give them. */
export const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/**
 * Follows one sync's commits: when it is time to say so, the pace over the last interval and the ETA at the
 * pace of the whole sync so far; null otherwise.
 */
export function createProgress(fromHeight: number, nodeHeight: number, intervalMs: number) {
  const began = performance.now();
  const startedAt = new Date().toISOString();
  let last = { at: began, height: fromHeight, txs: 0 };
  let txs = 0;
  let first = true;
  return {
    committed(height: number, txCount: number): SyncProgress | null {
      txs += txCount;
      const now = performance.now();
      const since = (now - last.at) / 1000;
      // A sync of one batch has no pace worth saying.
      if (height >= nodeHeight && first) return null;
      if (!first && since * 1000 < intervalMs) return null;
      first = false;
      const overall = (now - began) / 1000;
      const pace = overall > 0 ? (height - fromHeight) / overall : 0;
      const progress: SyncProgress = {
        height,
        nodeHeight,
        percent: nodeHeight > 0 ? Math.min(100, oneDecimal((100 * Math.max(0, height)) / nodeHeight)) : 100,
        blocksPerSecond: since > 0 ? oneDecimal((height - last.height) / since) : 0,
        txPerSecond: since > 0 ? oneDecimal((txs - last.txs) / since) : 0,
        etaSeconds: pace > 0 ? Math.max(0, Math.round((nodeHeight - height) / pace)) : null,
        startedAt,
        updatedAt: new Date().toISOString(),
      };
      last = { at: now, height, txs };
      return progress;
    },
  };
}
