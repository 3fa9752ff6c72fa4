/**
 * Memory and scale of the core: bytes of typed-array storage per item (array buffers grown by
 * building the index and running it, over the items), per current pair, and the step's time
 * per item from 100k to a million boxes.
 *
 *   npx tsx --expose-gc bench/memory.ts [--n 100000,1000000] [--frames 30]
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
  pairs: number;
  msPerFrame: number;
  nsPerItem: number;
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
  return {
    scene: label,
    n: scene.n,
    bytesPerItem: held / scene.n,
    pairs: tree.current.count,
    msPerFrame: ms,
    nsPerItem: (ms * 1e6) / scene.n,
  };
}

function main(): void {
  const { values } = parseArgs({
    options: { n: { type: 'string', default: '100000,1000000' }, frames: { type: 'string', default: '30' } },
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
  console.log('scene                 items    B/item   pairs     ms/frame  ns/item');
  for (const r of rows) {
    console.log(
      `${r.scene.padEnd(20)} ${String(r.n).padStart(8)} ${r.bytesPerItem.toFixed(0).padStart(8)} ${String(r.pairs).padStart(8)} ` +
        `${r.msPerFrame.toFixed(2).padStart(10)} ${r.nsPerItem.toFixed(0).padStart(8)}`,
    );
  }
}

main();
