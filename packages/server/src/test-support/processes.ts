// The child-process helpers are shared with other packages' tests; the server's tests keep importing them here.
export {
  ProcessExitedError,
  type Started,
  type StartOptions,
  startProcess,
  stopProcess,
} from '@explorer/testing';
