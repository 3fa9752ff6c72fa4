import { LooseQuadtree, validateTree } from 'bitecs-quadtree/core';

// 1,000 boxes of 4 to 12 px in a 1,024 px world, then small moves, then all removed.
const tree = new LooseQuadtree({ width: 1024, height: 1024 });
let seed = 1;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647; // deterministic runs
for (let id = 0; id < 1000; id++) {
  const x = random() * 1000,
    y = random() * 1000,
    size = 4 + random() * 8;
  tree.insert(id, x, y, x + size, y + size);
}
tree.step();
const byDepth: number[] = [];
tree.visitNodes((_minX, _minY, _maxX, _maxY, depth) => {
  byDepth[depth] = (byDepth[depth] ?? 0) + 1;
});
console.log(`maxDepth ${tree.maxDepth}; nodes by depth: ${byDepth.join(', ')}; pairs ${tree.stats.pairs}`);

const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
for (let id = 0; id < 100; id++) {
  // a tenth moves by 2 px
  tree.getBox(id, box);
  tree.move(id, box.minX + 2, box.minY, box.maxX + 2, box.maxY);
}
tree.step();
const s = tree.stats;
console.log(`moved ${s.moved}, changed node ${s.relocated}, pair tests ${s.pairTests}, pairs ${s.pairs}`);

for (let id = 0; id < 1000; id++) tree.remove(id);
tree.step();
console.log(`emptied: ${s.nodesLive} nodes live, ${s.groupsCounting} groups of four counting down`);
for (let frame = 0; frame < 8; frame++) tree.tick();
console.log(`8 frames later: ${s.nodesLive} node live, ${s.groupsFreed} groups freed`);
validateTree(tree); // throws if an invariant broke
