/** pearld's `version` answer: the version of its JSON-RPC API (btcd's), not of the node. */
export function pearldVersion(): Record<string, unknown> {
  return {
    pearldjsonrpcapi: {
      versionstring: '1.3.0',
      major: 1,
      minor: 3,
      patch: 0,
      prerelease: '',
      buildmetadata: '',
    },
  };
}
