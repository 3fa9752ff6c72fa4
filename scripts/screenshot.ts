// Makes docs/demo.png, the README's picture of the demo: builds the demo, serves the built
// files, lets the game play by itself (its autopilot) for a number of frames in headless
// Chromium and saves the page. Counting frames, not seconds, gives the same game time on a
// slow software renderer as on a fast one.
// Usage: npm run screenshot [-- --n 8000 --frames 420 --out docs/demo.png]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, preview } from 'vite';
import type { DemoState } from '../demo/state.js';
import { findChromium, launchChromium } from './chromium.js';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '8000' },
    frames: { type: 'string', default: '420' },
    out: { type: 'string', default: 'docs/demo.png' },
    width: { type: 'string', default: '1280' },
    height: { type: 'string', default: '720' },
  },
});

const chromiumPath = findChromium();
if (!chromiumPath) {
  console.error('screenshot: no Chromium at $CHROMIUM_PATH or /usr/bin/chromium (apt-get install chromium)');
  process.exit(1);
}

const configFile = join(root, 'vite.config.ts');
const outDir = mkdtempSync(join(tmpdir(), 'bitecs-quadtree-shot-'));
const out = resolve(root, values.out);
try {
  await build({ configFile, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
  });
  const browser = await launchChromium(chromiumPath);
  try {
    const page = await browser.newPage({ viewport: { width: Number(values.width), height: Number(values.height) } });
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const url = server.resolvedUrls?.local[0];
    if (url === undefined) throw new Error('screenshot: the preview server has no local address');
    await page.goto(`${url}?n=${values.n}&still`);
    await page.waitForFunction(() => (window as { demoState?: DemoState }).demoState?.ready === true, null, {
      timeout: 60_000,
    });
    await page.waitForFunction(
      (n) => ((window as { demoState?: DemoState }).demoState?.frames ?? 0) >= n,
      Number(values.frames),
      { timeout: 600_000, polling: 250 },
    );
    const state = await page.evaluate(() => ({ ...(window as { demoState?: DemoState }).demoState }));
    mkdirSync(dirname(out), { recursive: true });
    await page.screenshot({ path: out });
    console.log(
      `screenshot: ${out} (${state.entities} entities, ${state.pairs} pairs, ${state.frames} frames, ${state.renderer})`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
