import type { HandlerInput, HandlerOutput, OperationId, RouteOf } from '@explorer/core';

export type { ChainEvent, EventData, EventTopic, OperationId } from '@explorer/core';

/** The success body (envelope) of an operation, inferred from core's schemas. */
export type ResponseOf<K extends OperationId> = HandlerOutput<RouteOf<K>>;

/** The input of an operation: `params` (when its path has any) and `query`. */
export type InputOf<K extends OperationId> = HandlerInput<RouteOf<K>>;

/** The query parameters an operation takes. */
export type QueryOf<K extends OperationId> = NonNullable<InputOf<K>['query']>;

/** The path parameters of an operation. */
export type ParamsOf<K extends OperationId> = NonNullable<InputOf<K>['params']>;

/** The body members of an operation besides `ok`, `meta` and `pagination`. */
export type MemberOf<K extends OperationId> = Exclude<keyof ResponseOf<K>, 'ok' | 'meta' | 'pagination'> &
  string;

/** The element type of the array member `M` of an operation's body. */
export type ItemOf<
  K extends OperationId,
  M extends MemberOf<K>,
> = ResponseOf<K>[M] extends readonly (infer T)[] ? T : never;

/** A block height (number or decimal string) or a 64-hex block hash. */
export type HeightOrHash = string | number;

/** The served OpenAPI 3.1 document (not wrapped in the envelope). */
export type OpenApiDocument = Record<string, unknown>;

/** Blockbook's fee estimate: coins per 1,000 virtual bytes, as a decimal string. */
export interface BlockbookFeeEstimate {
  result: string;
}

/** The operations served as is, without the envelope. */
export type RawOperationId =
  | 'getOpenApiDocument'
  | 'getDocs'
  | 'getBlockbookEstimateFee'
  | 'getBlockbookV2EstimateFee';

/**
 * What the client resolves with for an operation: its success body (the OpenAPI document, or Blockbook's form,
 * for the raw ones).
 */
export type ResultOf<K extends OperationId> = K extends 'getOpenApiDocument' | 'getDocs'
  ? OpenApiDocument
  : K extends RawOperationId
    ? BlockbookFeeEstimate
    : ResponseOf<K>;
