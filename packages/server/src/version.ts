import { readFileSync } from 'node:fs';

// src/ and dist/ both sit beside package.json, so the same relative URL works from source and from the build.
function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Version of @explorer/server, read from its package.json. */
export const SERVER_VERSION: string = readVersion();
