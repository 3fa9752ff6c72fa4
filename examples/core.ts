import { LooseQuadtree } from 'bitecs-quadtree/core';

const tree = new LooseQuadtree({ width: 2048, height: 2048 });
tree.insert(1, 10, 10, 20, 20); // id, minX, minY, maxX, maxY
tree.insert(2, 15, 15, 30, 30);
tree.setCollider(2, 0b10, -1, 200); // layer, mask, priority
tree.step(); // finds pair changes for what moved since the last step
const e = tree.entered; // read the lists after each step: a step may replace them
console.log(e.count, e.a[0], e.b[0], e.priority[0]); // 1 1 2 128: the pair has the lower priority
tree.move(2, 100, 100, 115, 115);
tree.step();
console.log(tree.exited.count, tree.exited.a[0]); // 1 1
const hits: number[] = [];
console.log(tree.queryCircle(100, 100, 30, hits), hits); // 1 [ 2 ]
