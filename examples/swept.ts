import { LooseQuadtree, type SweepHit } from 'bitecs-quadtree/core';

// A 4 px bullet at 1,200 px/s moves 40 px a frame at 30 FPS: from x = 0 to x = 40 it jumps
// over a 4 px wall at x = 18..22, and an overlap test at each frame never sees them meet.
function shoot(swept: boolean): void {
  const tree = new LooseQuadtree({ width: 256, height: 256 });
  tree.insert(1, -2, 98, 2, 102); // the bullet, centred on (0, 100)
  tree.insert(2, 18, 60, 22, 140); // the wall
  tree.setStatic(2, true);
  if (swept) tree.setSwept(1, true); // found along its path from now on
  tree.step();
  tree.move(1, 38, 98, 42, 102); // one frame later: centred on (40, 100)
  tree.step();
  if (tree.entered.count === 0) {
    console.log(`${swept ? 'swept' : 'not swept'}: no hit`);
    return;
  }
  const toi = tree.timeOfImpact(1, 2); // 0..1: when in the frame the bullet first touched
  const from = { minX: 0, minY: 0, maxX: 0, maxY: 0 },
    to = { ...from };
  tree.getPath(1, from, to); // the path the step tested
  const x = from.minX + toi * (to.minX - from.minX);
  console.log(`swept: hit the wall at toi ${toi}, the bullet's left edge at x = ${x}`);
}
shoot(false);
shoot(true);

// A swept raycast for a body the game moves itself: nothing in the tree changes.
const tree = new LooseQuadtree({ width: 256, height: 256 });
tree.insert(2, 18, 60, 22, 140);
const hit: SweepHit = { id: -1, toi: 0 };
tree.sweepBox(-2, 98, 2, 102, 40, 0, hit); // the bullet's box moved by (40, 0)
console.log(`sweepBox: item ${hit.id} at toi ${hit.toi}`);
