// A block reader thread: fetches blocks from the node and decodes them through the chain profile, off the
// writer's thread. Started by `createBlockReader` with the node's connection and the chain's description.
import { parentPort, workerData } from 'node:worker_threads';
import type { Logger } from '@explorer/core';
import { profileFor } from '../chains/detect.js';
import { createNodeClient } from '../node-client.js';
import { readBlocks } from './read-blocks.js';
import { type ReaderTask, type ReaderThreadData, taskFailure, type WorkerAnswer } from './reader-protocol.js';

const data = workerData as ReaderThreadData;
/** What the profile logs while a task runs goes back with its answer, to the process's own logger. */
let logs: WorkerAnswer['logs'] = [];
const keep =
  (level: 'debug' | 'info' | 'warn' | 'error') => (fields: Record<string, unknown>, msg: string) => {
    logs.push({ level, fields, msg });
  };
const log: Logger = { debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
const profile = profileFor(data.info, log);
const tlsCa = data.connection.tlsCa;
const node = createNodeClient({
  ...data.connection,
  // A Buffer arrives as a Uint8Array.
  tlsCa: tlsCa === undefined || typeof tlsCa === 'string' ? tlsCa : Buffer.from(tlsCa),
});

parentPort!.on('message', async (task: ReaderTask | { close: true }) => {
  if ('close' in task) process.exit(0);
  logs = [];
  let answer: WorkerAnswer;
  try {
    if (!profile) throw new Error(`no chain profile for ${JSON.stringify(data.info.profile)}`);
    const blocks = await readBlocks(node, profile, task.from, task.count, task.prevHash);
    answer = { id: task.id, blocks, logs };
  } catch (err) {
    answer = { id: task.id, error: taskFailure(err), logs };
  }
  parentPort!.postMessage(answer);
});
