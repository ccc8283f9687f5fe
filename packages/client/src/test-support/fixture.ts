import { type ChainFixture, createChainFixture } from '../../../server/src/contract/fixture.js';
import { serveFetch, type TestServer } from './http.js';

/** The contract fixture (a devnet chain indexed into PGlite) with its API served over HTTP on 127.0.0.1. */
export interface ServedFixture {
  fixture: ChainFixture;
  server: TestServer;
  close(): Promise<void>;
}

/**
 * Builds the fixture and serves its API; `extra` answers paths it knows (static files) before the API.
 * @example const { fixture, server } = await serveChainFixture(); createExplorerClient({ baseUrl: server.url })
 */
export async function serveChainFixture(
  extra: (req: Request) => Response | null = () => null,
): Promise<ServedFixture> {
  const fixture = await createChainFixture('pglite');
  const server = await serveFetch((req) => extra(req) ?? fixture.api.handle(req));
  return {
    fixture,
    server,
    async close() {
      await server.close();
      await fixture.close();
    },
  };
}
