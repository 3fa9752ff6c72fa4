import { LooseQuadtree, QuadtreeSnapshot, saveTree, restoreTree } from 'bitecs-quadtree/core';

// Rollback netcode in miniature: 300 boxes drift; the remote player's input for frame 40
// (a shove of box 0) only arrives at frame 44. The game restores the snapshot saved before
// frame 40 and runs frames 40 to 44 again with it, and its pairs then match a run that had
// the input on time.
const FRAMES = 60;
const boxes = new Float64Array(300 * 4);
let seed = 7;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647; // deterministic runs
for (let i = 0; i < boxes.length; i += 4) {
  boxes[i] = random() * 480;
  boxes[i + 1] = random() * 480;
  boxes[i + 2] = boxes[i] + 6 + random() * 14;
  boxes[i + 3] = boxes[i + 1] + 6 + random() * 14;
}

/** One frame: every box drifts by a pattern of the frame, box 0 by the input too; then a step. */
function frame(tree: LooseQuadtree, f: number, shove: number, at: Float64Array): string {
  for (let id = 0; id < 300; id++) {
    const dx = Math.sin(f * 0.3 + id) * 2 + (id === 0 ? shove : 0);
    const dy = Math.cos(f * 0.2 + id * 1.7) * 2;
    const o = id * 4;
    at[o] += dx;
    at[o + 1] += dy;
    at[o + 2] += dx;
    at[o + 3] += dy;
    tree.move(id, at[o], at[o + 1], at[o + 2], at[o + 3]);
  }
  const s = tree.step();
  return `${s.pairs}/${s.entered}/${s.exited}`;
}

function world(): { tree: LooseQuadtree; at: Float64Array } {
  const tree = new LooseQuadtree({ width: 512, height: 512 });
  for (let id = 0; id < 300; id++)
    tree.insert(id, boxes[id * 4], boxes[id * 4 + 1], boxes[id * 4 + 2], boxes[id * 4 + 3]);
  tree.step();
  return { tree, at: boxes.slice() };
}

// The run that had the shove on time, for comparison.
const onTime = world();
const expected: string[] = [];
for (let f = 0; f < FRAMES; f++) expected.push(frame(onTime.tree, f, f === 40 ? 30 : 0, onTime.at));

// The rollback run: a snapshot before every frame, in a ring of 8 reused snapshots, with the
// game's own state (the positions) saved beside it.
const { tree, at } = world();
const ring = Array.from({ length: 8 }, () => ({ snap: new QuadtreeSnapshot(), at: new Float64Array(at.length) }));
const got: string[] = [];
let input40 = 0; // not known yet
for (let f = 0; f < FRAMES; f++) {
  const slot = ring[f % 8];
  saveTree(tree, slot.snap);
  slot.at.set(at);
  got[f] = frame(tree, f, f === 40 ? input40 : 0, at);
  if (f === 44) {
    input40 = 30; // the late input arrives: back to before frame 40, and frames 40 to 44 again
    const back = ring[40 % 8];
    restoreTree(tree, back.snap);
    at.set(back.at);
    console.log(`at frame 44, back to step ${tree.stepCount}, saved before frame 40`);
    for (let g = 40; g <= 44; g++) {
      ring[g % 8].snap = saveTree(tree, ring[g % 8].snap);
      ring[g % 8].at.set(at);
      got[g] = frame(tree, g, g === 40 ? input40 : 0, at);
    }
  }
}
console.log(`frame 40 pairs/entered/exited: on time ${expected[40]}, after the rollback ${got[40]}`);
console.log(`all ${FRAMES} frames match: ${got.every((s, f) => s === expected[f])}`);
console.log(`a snapshot holds ${(ring[0].snap.byteLength / 1024).toFixed(0)} KiB`);
