import type { AnyRoute } from '../route.js';
import { accessRoutes } from './access.js';
import { addressListRoutes } from './address-lists.js';
import { addressRoutes } from './addresses.js';
import { analyticsRoutes } from './analytics.js';
import { blockRoutes } from './blocks.js';
import { docsRoutes } from './docs.js';
import { eventRoutes } from './events.js';
import { feeRoutes } from './fees.js';
import { labelRoutes } from './labels.js';
import { marketRoutes } from './market.js';
import { mempoolRoutes } from './mempool.js';
import { minerRoutes } from './miners.js';
import { poolRoutes } from './pools.js';
import { searchRoutes } from './search.js';
import { transactionRoutes } from './transactions.js';
import { walletRoutes } from './wallets.js';

const all = [
  ...docsRoutes,
  ...accessRoutes,
  ...blockRoutes,
  ...transactionRoutes,
  ...addressRoutes,
  ...addressListRoutes,
  ...walletRoutes,
  ...minerRoutes,
  ...poolRoutes,
  ...analyticsRoutes,
  ...searchRoutes,
  ...labelRoutes,
  ...mempoolRoutes,
  ...feeRoutes,
  ...marketRoutes,
  ...eventRoutes,
] as const;

/** Every /v1 route definition, each with its own schemas' types. */
export type V1Route = (typeof all)[number];

/** The operation ids of the API. */
export type OperationId = V1Route['id'];

/** The route of one operation id. */
export type RouteOf<K extends OperationId> = Extract<V1Route, { id: K }>;

/** Every /v1 endpoint, in the order the OpenAPI document lists them. */
export const v1Routes: readonly AnyRoute[] = all;
