import { ExplorerError } from './explorer-error.js';

/**
 * A 2xx answer whose body is not what the operation promises (only with `validate: true` or a `validator`).
 * @example catch (e) { if (e instanceof ExplorerValidationError) console.error(e.operationId, e.message, e.body) }
 */
export class ExplorerValidationError extends ExplorerError {
  override name = 'ExplorerValidationError';
  /** The operation id of the request. */
  readonly operationId: string;
  /** The parsed body that failed the check. */
  readonly body: unknown;
  constructor(operationId: string, problem: string, body: unknown) {
    super(`${operationId}: the response does not match the API: ${problem}`, false);
    this.operationId = operationId;
    this.body = body;
  }
}
