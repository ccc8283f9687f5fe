export { type ApiAnswer, type HeaderRecord, toResponse } from './answer.js';
export {
  type AnswerFacts,
  type ApiDeps,
  createExplorerApi,
  defaultApiConfig,
  type EventAdmission,
  type ExplorerApi,
  type HandleOptions,
} from './create-api.js';
export { type Authenticator, requestIdOf } from './identify.js';
export { refuseRequest } from './refusals.js';
