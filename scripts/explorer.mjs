#!/usr/bin/env node
// `npm run explorer -- <args>`: the `explorer` command line from a checkout, once `npm start` (or a build) has
// built it. Its default server is the one `npm start` serves, http://127.0.0.1:3000 (--base-url or
// EXPLORER_BASE_URL for another). `npm run -s explorer -- …` keeps npm's own header out of piped output.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../packages/cli/dist/bin.js', import.meta.url));
// The bin imports the SDK's build too; both come from the same build step.
const sdk = fileURLToPath(new URL('../packages/client/dist/index.js', import.meta.url));

if (!existsSync(bin) || !existsSync(sdk)) {
  console.error(
    'explorer: the command line is not built yet; run `npm start` once (it installs and builds), then try again',
  );
  process.exit(1);
}
// The bin reads process.argv from index 2, which holds the same arguments here.
await import(new URL('../packages/cli/dist/bin.js', import.meta.url).href);
