/**
 * Memory and scale of the core: bytes of typed-array storage (array buffers grown by building
 * the index and running it) per item, split into the pair lists' part per current pair and the
 * rest per item, and the step's time per item from 100k to a million boxes (the median frame,
 * and the slowest: most often one that lays the slots out again in cell order). The default
 * 100 frames let the steady state settle: lists that a full world's first step grew give their
 * room back after 64 quiet steps, and slots compact once a quarter of the items changed node.
 *
 *   npx tsx --expose-gc bench/memory.ts [--n 100000,1000000] [--frames 100]
 */
import { parseArgs } from 'node:util';
import { PairSum } from './contender.js';
import { coreFrame, coreOver } from './ours.js';
import { Scene, type Mode } from './scene.js';
import { StormScene } from './storm-scene.js';
import { median } from './summary.js';

const gc = (globalThis as { gc?: () => void }).gc;

function arrayBytes(): number {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage().arrayBuffers;
}

interface Row {
  scene: string;
  n: number;
  bytesPerItem: number;
  /** The bytes that are not the pair lists', per item. */
  itemBytes: number;
  /** The pair lists' bytes (current, entries, exits, the step's found pairs and their sort's scratch), per current pair. */
  pairBytes: number;
  pairs: number;
  msPerFrame: number;
  nsPerItem: number;
  /** The slowest frame: one that lays the slots out again in cell order (see SpatialTree.compactIfScattered). */
  worstMs: number;
}

/** Builds the core over the scene, runs it, and measures what it holds and how long a frame takes. */
function measure(scene: Scene | StormScene, label: string, frames: number): Row {
  const before = arrayBytes();
  const tree = coreOver(scene);
  const sum = new PairSum();
  const times: number[] = [];
  for (let f = 0; f < frames + 5; f++) {
    scene.advance();
    sum.reset();
    const t0 = performance.now();
    coreFrame(tree, scene, sum);
    if (f >= 5) times.push(performance.now() - t0);
  }
  const held = arrayBytes() - before;
  const ms = median(times);
  const lists = pairListBytes(tree);
  const pairs = tree.current.count;
  return {
    scene: label,
    n: scene.n,
    bytesPerItem: held / scene.n,
    itemBytes: (held - lists) / scene.n,
    pairBytes: pairs > 0 ? lists / pairs : 0,
    pairs,
    msPerFrame: ms,
    nsPerItem: (ms * 1e6) / scene.n,
    worstMs: Math.max(...times),
  };
}

/** Bytes of the buffers the pair lists hold: the broadphase's lists (with the radix sort's scratch) and its found pairs. */
function pairListBytes(tree: ReturnType<typeof coreOver>): number {
  const bp = (tree as unknown as { broadphase: { lists: object; found: object } }).broadphase;
  const seen = new Set<ArrayBufferLike>();
  let bytes = 0;
  const walk = (o: unknown, depth: number): void => {
    if (o === null || typeof o !== 'object' || depth > 3) return;
    if (ArrayBuffer.isView(o)) {
      if (!seen.has(o.buffer)) bytes += o.buffer.byteLength;
      seen.add(o.buffer);
      return;
    }
    for (const v of Object.values(o)) walk(v, depth + 1);
  };
  walk(bp.lists, 0);
  walk(bp.found, 0);
  return bytes;
}

function main(): void {
  const { values } = parseArgs({
    options: { n: { type: 'string', default: '100000,1000000' }, frames: { type: 'string', default: '100' } },
  });
  if (gc === undefined) throw new Error('run with --expose-gc: npx tsx --expose-gc bench/memory.ts');
  const ns = values.n.split(',').map(Number);
  const frames = Number(values.frames);
  const rows: Row[] = [];
  for (const n of ns) {
    for (const mode of ['10', 'all'] as Mode[])
      rows.push(measure(new Scene(n, mode), `bounce, ${mode === 'all' ? 'all' : '10%'} moving`, frames));
    if (n <= 100_000) rows.push(measure(new StormScene(n), 'storm', frames));
  }
  console.log(
    'scene                 items    B/item  items B/item  pairs B/pair   pairs     ms/frame  ns/item  worst ms',
  );
  for (const r of rows) {
    console.log(
      `${r.scene.padEnd(20)} ${String(r.n).padStart(8)} ${r.bytesPerItem.toFixed(0).padStart(8)} ` +
        `${r.itemBytes.toFixed(0).padStart(12)} ${r.pairBytes.toFixed(0).padStart(12)} ${String(r.pairs).padStart(8)} ` +
        `${r.msPerFrame.toFixed(2).padStart(10)} ${r.nsPerItem.toFixed(0).padStart(8)} ${r.worstMs.toFixed(1).padStart(9)}`,
    );
  }
}

main();
