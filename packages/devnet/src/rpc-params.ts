import { RpcError } from './rpc-error.js';

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** Core's RPC_TYPE_ERROR message for a mistyped argument. */
export function typeError(v: unknown, expected: string): RpcError {
  return new RpcError(-3, `JSON value of type ${typeName(v)} is not of expected type ${expected}`);
}

/** A required argument is missing: Core answers with the method's usage (code -1). */
export function usage(method: string, args: string): RpcError {
  return new RpcError(-1, `${method} ${args}`);
}

/** Integer argument (required when def is undefined). */
export function intParam(params: unknown[], i: number, method: string, args: string, def?: number): number {
  const v = params[i];
  if (v === undefined || v === null) {
    if (def === undefined) throw usage(method, args);
    return def;
  }
  if (typeof v !== 'number') throw typeError(v, 'number');
  if (!Number.isInteger(v)) throw new RpcError(-1, 'JSON integer out of range');
  return v;
}

/** Boolean argument; Core also accepts numbers for verbose flags. */
export function boolParam(params: unknown[], i: number, def: boolean): boolean {
  const v = params[i];
  if (v === undefined || v === null) return def;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  throw typeError(v, 'bool');
}

/** 64-hex hash argument validated like Core's ParseHashV. */
export function hashParam(params: unknown[], i: number, method: string, args: string, name: string): string {
  const v = params[i];
  if (v === undefined || v === null) throw usage(method, args);
  if (typeof v !== 'string') throw typeError(v, 'string');
  if (v.length !== 64) throw new RpcError(-8, `${name} must be of length 64 (not ${v.length}, for '${v}')`);
  if (!/^[0-9a-fA-F]{64}$/.test(v)) throw new RpcError(-8, `${name} must be hexadecimal string (not '${v}')`);
  return v.toLowerCase();
}

/** getblock's verbosity: a number, or a boolean as older clients send it (true = 1); 1 when absent. */
export function verbosityParam(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (v !== undefined && v !== null) throw typeError(v, 'number');
  return 1;
}
