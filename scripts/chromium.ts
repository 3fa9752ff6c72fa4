import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Flags for headless Chromium on a machine with no GPU and no network but loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium to drive: `$CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`; null when neither exists. */
export function findChromium(): string | null {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return existsSync(path) ? path : null;
}

/** Launches headless Chromium (PixiJS renders through software WebGL there). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
