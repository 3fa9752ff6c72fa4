import { addComponent, addEntity, createWorld, query } from 'bitecs';
import { Application, Container, Graphics, Sprite, Texture } from 'pixi.js';
import {
  addQuadtree,
  Bounds,
  getQuadtree,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
} from 'bitecs-quadtree';
import { QuadtreeOverlay, SpriteCuller } from 'bitecs-quadtree/pixi';

const WORLD = 4096,
  BOXES = 5000;
const app = new Application();
await app.init({ resizeTo: window, background: 0x0a0f18 });
document.body.appendChild(app.canvas);
const info = document.getElementById('info') ?? document.body; // index.html's line of numbers

const world = addQuadtree(createWorld(), { width: WORLD, height: WORLD, pairEntities: false });
const tree = getQuadtree(world);
const Velocity = { x: [] as number[], y: [] as number[] };
const camera = new Container(); // the world layer: moved opposite to the view
app.stage.addChild(camera);
const culler = new SpriteCuller(); // sets `culled` on sprites out of view; `visible` stays yours
const sprites: Sprite[] = [];
for (let i = 0; i < BOXES; i++) {
  const eid = addEntity(world, Position, Bounds);
  Position.x[eid] = Math.random() * WORLD;
  Position.y[eid] = Math.random() * WORLD;
  Bounds.width[eid] = Bounds.height[eid] = 6 + Math.random() * 10;
  const sprite = new Sprite({ texture: Texture.WHITE, anchor: 0.5, tint: i % 10 === 0 ? 0xffee00 : 0x33ccff });
  sprite.setSize(Bounds.width[eid], Bounds.height[eid]);
  sprite.position.set(Position.x[eid], Position.y[eid]);
  sprites[eid] = camera.addChild(sprite);
  culler.set(eid, sprite);
  if (i % 10 === 0) {
    // a tenth of the boxes wander
    addComponent(world, eid, Velocity);
    Velocity.x[eid] = Math.random() * 2 - 1;
    Velocity.y[eid] = Math.random() * 2 - 1;
  }
}
// Node outlines coloured by depth (white root, red leaves) and a line per overlapping pair.
const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: tree.maxDepth, bounds: 'cell', pairs: true });
camera.addChild(overlay.graphics);

let frames = 0;
app.ticker.add((ticker) => {
  for (const eid of query(world, [Velocity])) {
    Position.x[eid] += Velocity.x[eid] * ticker.deltaTime;
    Position.y[eid] += Velocity.y[eid] * ticker.deltaTime;
  }
  quadtreeCollisionSystem(quadtreeSyncSystem(world));
  const t = performance.now() / 4000,
    { width, height } = app.screen;
  const x = WORLD / 2 + Math.cos(t) * 1200 - width / 2,
    y = WORLD / 2 + Math.sin(t) * 1200 - height / 2;
  camera.position.set(-x, -y);
  culler.cull(tree, x, y, x + width, y + height);
  for (const eid of query(world, [Velocity])) {
    // only moved sprites in view need their position
    if (!sprites[eid].culled) sprites[eid].position.set(Position.x[eid], Position.y[eid]);
  }
  overlay.draw(tree, x, y, x + width, y + height); // only the nodes in view
  if (++frames % 30 === 0) {
    info.textContent =
      `${BOXES} boxes, ${culler.visibleCount} in view, ` +
      `${overlay.nodesDrawn} nodes and ${overlay.pairsDrawn} pairs drawn`;
  }
});

/** What the page shows, read by the browser test. */
export interface ExampleState {
  frames: number;
  boxes: number;
  inView: number;
  nodesDrawn: number;
  renderer: string;
}
(window as Window & { exampleState?: ExampleState }).exampleState = {
  get frames() {
    return frames;
  },
  boxes: BOXES,
  get inView() {
    return culler.visibleCount;
  },
  get nodesDrawn() {
    return overlay.nodesDrawn;
  },
  renderer: app.renderer.name,
};
