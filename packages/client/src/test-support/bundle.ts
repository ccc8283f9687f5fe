import { build } from 'esbuild';

const entry = new URL('../index.ts', import.meta.url).pathname;

/**
 * Bundles the client the way a browser app would: one minified ESM file; ky is left out unless asked for.
 * @example const code = await bundleClient({ withKy: true })
 */
export async function bundleClient(opts: { withKy?: boolean; minify?: boolean } = {}): Promise<string> {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    minify: opts.minify ?? true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external: opts.withKy ? [] : ['ky'],
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}
