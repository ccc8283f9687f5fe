import { existsSync } from 'node:fs';

/** Chromium's executable: CHROMIUM_PATH, else Debian's; undefined when there is none (browser tests skip). */
export const chromiumPath: string | undefined = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
].find((p) => p && existsSync(p));

/** Flags every headless run uses. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
];
