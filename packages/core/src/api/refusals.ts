import type { ApiError } from '../errors.js';

/** Requests their host refused before handing them over, with the error to answer them with. */
const refusals = new WeakMap<Request, ApiError>();

/**
 * Marks a request its host refused before the API could read it (a URL too long, headers too large, bytes that
 * are not HTTP): the API answers it with `error` once it has counted it against the caller's bucket, so the
 * refusal carries the same `meta` (indexed tip, node height) and rate-limit headers as every other answer.
 * Returns the request.
 * @example await api.handle(refuseRequest(request, new ApiError(414, 'the request URL is too long')))
 */
export function refuseRequest(request: Request, error: ApiError): Request {
  refusals.set(request, error);
  return request;
}

/** The error a host marked `request` with, if any. */
export function refusalOf(request: Request): ApiError | undefined {
  return refusals.get(request);
}
