// What every benchmark result records about the machine it ran on.
import { cpus, totalmem } from 'node:os';

/** Cores, CPU model, memory and Node version. */
export function machineInfo() {
  return {
    cpus: cpus().length,
    model: cpus()[0]?.model,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
  };
}
