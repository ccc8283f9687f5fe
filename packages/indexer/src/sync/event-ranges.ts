/**
 * The heights of a written batch (`first`…`last`) whose blocks get `block` and `address` events: those within
 * `liveWindow` of the node's tip (an initial sync's do not, so they do not flood the log; blocks written while
 * following the tip all do), and those up to `announceThrough`, which a reorg event named whatever their depth.
 * Ranges in order, adjacent ones merged.
 * @example eventRanges({ first: 90, last: 110, nodeHeight: 200, liveWindow: 100, announceThrough: null }) // [[101, 110]]
 */
export function eventRanges(o: {
  first: number;
  last: number;
  nodeHeight: number;
  liveWindow: number;
  announceThrough: number | null;
}): [number, number][] {
  const named: [number, number] = [o.first, Math.min(o.last, o.announceThrough ?? -1)];
  const live: [number, number] = [Math.max(o.first, o.nodeHeight - o.liveWindow + 1), o.last];
  const ranges = [named, live].filter(([a, b]) => a <= b);
  if (ranges.length === 2 && ranges[0]![1] >= ranges[1]![0] - 1) return [[o.first, o.last]];
  return ranges;
}
