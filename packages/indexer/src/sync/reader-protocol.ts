import { type ChainInfo, ChainProfileError } from '../chains/profile.js';
import { ChainMismatchError, MalformedBlockError } from '../ingest/errors.js';
import type { ParsedBlock } from '../ingest/parse.js';
import { type NodeConnection, NodeRpcError, NodeUnavailableError } from '../node-client.js';

/** What a block reader thread is started with. */
export interface ReaderThreadData {
  info: ChainInfo;
  connection: NodeConnection;
}

/** One task: the blocks of `count` heights from `from`; `prevHash` as `readBlocks` takes it. */
export interface ReaderTask {
  id: number;
  from: number;
  count: number;
  prevHash: string | null | undefined;
}

/** A failure as it crosses threads: its class by name, and what that class carries. */
export interface TaskFailure {
  name: string;
  message: string;
  method?: string;
  code?: number;
}

/** A thread's answer to a task, with what the profile logged meanwhile. */
export type WorkerAnswer = { id: number; logs: LoggedLine[] } & (
  | { blocks: ParsedBlock[]; error?: undefined }
  | { error: TaskFailure; blocks?: undefined }
);

/** A log line written in a reader thread. */
export interface LoggedLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  msg: string;
}

/** An error as it crosses threads. */
export function taskFailure(err: unknown): TaskFailure {
  const e = err as Partial<TaskFailure> | undefined;
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    message: typeof e?.message === 'string' ? e.message : String(err),
    method: typeof e?.method === 'string' ? e.method : undefined,
    code: typeof e?.code === 'number' ? e.code : undefined,
  };
}

/** The error a thread's failure stands for, of the class the indexer tells states by (node unreachable, …). */
export function reviveFailure(f: TaskFailure): Error {
  const classes: Record<string, new (message: string) => Error> = {
    NodeUnavailableError,
    MalformedBlockError,
    ChainMismatchError,
    ChainProfileError,
  };
  let err: Error;
  if (f.name === 'NodeRpcError') {
    err = new NodeRpcError(f.method ?? '', f.code ?? 0, '');
    err.message = f.message;
  } else if (classes[f.name]) err = new classes[f.name]!(f.message);
  else {
    err = new Error(f.message);
    err.name = f.name;
  }
  return err;
}
