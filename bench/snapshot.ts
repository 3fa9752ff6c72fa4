/**
 * Snapshots for rollback: the time to save and to restore the whole collision state, the
 * bytes a snapshot holds and the bytes a save copies (the parts of the buffers in use), for the bouncing boxes (a tenth moving) and the storm, after the
 * scene has run a while. Saves reuse one snapshot, as a rollback loop's ring of them does.
 *
 *   npx tsx --expose-gc bench/snapshot.ts [--n 10000,100000] [--repeats 200]
 */
import { parseArgs } from 'node:util';
import { PairSum } from './contender.js';
import { coreFrame, coreOver } from './ours.js';
import { Scene } from './scene.js';
import { StormScene } from './storm-scene.js';
import { median } from './summary.js';

interface Row {
  scene: string;
  n: number;
  pairs: number;
  save: number;
  restore: number;
  bytesPerItem: number;
  copiedPerItem: number;
}

function measure(scene: Scene | StormScene, label: string, repeats: number): Row {
  const tree = coreOver(scene);
  const sum = new PairSum();
  for (let f = 0; f < 20; f++) {
    scene.advance();
    sum.reset();
    coreFrame(tree, scene, sum);
  }
  const snap = tree.save();
  const saves: number[] = [];
  const restores: number[] = [];
  for (let r = 0; r < repeats; r++) {
    // A frame between, as in a game: the restore then undoes a real step.
    scene.advance();
    coreFrame(tree, scene, sum);
    const t0 = performance.now();
    tree.save(snap);
    const t1 = performance.now();
    scene.advance();
    coreFrame(tree, scene, sum);
    const t2 = performance.now();
    tree.restore(snap);
    const t3 = performance.now();
    saves.push(t1 - t0);
    restores.push(t3 - t2);
  }
  tree.validate();
  return {
    scene: label,
    n: scene.n,
    pairs: tree.current.count,
    save: median(saves),
    restore: median(restores),
    bytesPerItem: snap.byteLength / scene.n,
    copiedPerItem: snap.used.reduce((sum, n) => sum + n, 0) / scene.n,
  };
}

function main(): void {
  const { values } = parseArgs({
    options: { n: { type: 'string', default: '10000,100000' }, repeats: { type: 'string', default: '200' } },
  });
  const rows: Row[] = [];
  for (const n of values.n.split(',').map(Number)) {
    const repeats = Math.max(10, Math.round(Number(values.repeats) * Math.min(1, 10_000 / n)));
    rows.push(measure(new Scene(n, '10'), 'bounce, 10% moving', repeats));
    rows.push(measure(new StormScene(n), 'storm', repeats));
  }
  console.log('scene                 items    pairs   save ms  restore ms  both ms  held B/item  copied B/item');
  for (const r of rows) {
    console.log(
      `${r.scene.padEnd(20)} ${String(r.n).padStart(7)} ${String(r.pairs).padStart(8)} ${r.save.toFixed(3).padStart(9)} ${r.restore.toFixed(3).padStart(11)} ${(r.save + r.restore).toFixed(3).padStart(8)} ${r.bytesPerItem.toFixed(0).padStart(12)} ${r.copiedPerItem.toFixed(0).padStart(14)}`,
    );
  }
}

main();
