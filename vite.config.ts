import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = fileURLToPath(new URL('./src/', import.meta.url));

// One file serves the demo (vite), the library tests and the browser tests (vitest projects).
export default defineConfig({
  root: '.',
  server: { host: '127.0.0.1' },
  // The examples import the package by its name, as a game does; here it is the sources.
  resolve: {
    alias: [
      { find: /^bitecs-quadtree$/, replacement: `${src}index.ts` },
      { find: /^bitecs-quadtree\/(core|pixi|tilemap)$/, replacement: `${src}$1/index.ts` },
    ],
  },
  build: { outDir: 'dist-demo', emptyOutDir: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/package/**'],
          testTimeout: 60_000,
          execArgv: ['--expose-gc'],
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: ['test/package/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // Software-GL Chromiums starve each other on small machines: one file at a time.
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
