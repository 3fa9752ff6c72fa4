import { addComponent, addEntity, createWorld, query } from 'bitecs';
import { Application, Container, Graphics, Sprite, Text, Texture } from 'pixi.js';
import {
  addQuadtree,
  Bounds,
  Collider,
  getQuadtree,
  getStats,
  onCollision,
  Phase,
  Position,
  pushOut,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  Static,
} from 'bitecs-quadtree';
import { QuadtreeHud, QuadtreeOverlay, SpriteCuller } from 'bitecs-quadtree/pixi';

// A small complete game: 5,000 boxes in a 4,096 px world, a tenth of them drifting and
// bouncing off 40 walls, a view circling over them. Only the sprites in view are drawn and
// moved, the tree is drawn over them, and a HUD shows the world's stats.
const WORLD = 4096,
  BOXES = 5000,
  WALLS = 40;
const WALL = 1,
  BOX = 2;
const app = new Application();
await app.init({ resizeTo: window, background: 0x0a0f18 });
document.body.appendChild(app.canvas);
const info = document.getElementById('info') ?? document.body; // index.html's line of numbers

const world = addQuadtree(createWorld(), { width: WORLD, height: WORLD, pairEntities: false });
const tree = getQuadtree(world);
const Velocity = { x: [] as number[], y: [] as number[] };
const camera = new Container(); // the world layer: moved opposite to the view
app.stage.addChild(camera);
const culler = new SpriteCuller<Sprite>(); // sets `culled` on sprites out of view; <Sprite>: placeVisible moves them

function body(x: number, y: number, w: number, h: number, layer: number, tint: number): number {
  const eid = addEntity(world, Position, Bounds, Collider);
  Position.x[eid] = x;
  Position.y[eid] = y;
  Bounds.width[eid] = w;
  Bounds.height[eid] = h;
  Collider.layer[eid] = layer;
  Collider.mask[eid] = WALL | BOX;
  Collider.priority[eid] = 128;
  const sprite = new Sprite({ texture: Texture.WHITE, anchor: 0.5, tint });
  sprite.setSize(w, h);
  sprite.position.set(x, y);
  culler.set(eid, camera.addChild(sprite));
  return eid;
}
for (let i = 0; i < WALLS; i++) {
  const long = 200 + Math.random() * 400,
    across = i % 2 === 0;
  const wall = body(
    Math.random() * WORLD,
    Math.random() * WORLD,
    across ? long : 24,
    across ? 24 : long,
    WALL,
    0x5a6b82,
  );
  addComponent(world, wall, Static);
}
for (let i = 0; i < BOXES; i++) {
  const size = 6 + Math.random() * 10;
  const eid = body(Math.random() * WORLD, Math.random() * WORLD, size, size, BOX, i % 10 === 0 ? 0xffee00 : 0x33ccff);
  Velocity.x[eid] = Velocity.y[eid] = 0; // still, unless it drifts
  if (i % 10 === 0) {
    // a tenth of the boxes drift
    addComponent(world, eid, Velocity);
    Velocity.x[eid] = Math.random() * 4 - 2;
    Velocity.y[eid] = Math.random() * 4 - 2;
  }
}
// A drifting box that runs into a wall is pushed out of it and bounces back whole.
onCollision(world, (box, wall) => pushOut(world, box, wall, Velocity, 1), {
  layer: BOX,
  other: WALL,
  phases: Phase.Enter | Phase.Stay,
});

// Node outlines coloured by depth (white root, red leaves) and a line per overlapping pair.
const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: tree.maxDepth, bounds: 'cell', pairs: true });
camera.addChild(overlay.graphics);
const hud = new QuadtreeHud(new Text({ style: { fontFamily: 'monospace', fontSize: 12, fill: 0xc9d6e8 } }), {
  x: 8,
  y: 8,
  lines: ['fps', 'entities', 'pairs', 'ms'],
});
app.stage.addChild(hud.text); // added last: drawn above the world

let frames = 0;
app.ticker.add((ticker) => {
  for (const eid of query(world, [Velocity])) {
    Position.x[eid] = Math.min(Math.max(Position.x[eid] + Velocity.x[eid] * ticker.deltaTime, 0), WORLD);
    Position.y[eid] = Math.min(Math.max(Position.y[eid] + Velocity.y[eid] * ticker.deltaTime, 0), WORLD);
  }
  quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
  const t = performance.now() / 4000,
    { width, height } = app.screen;
  const x = WORLD / 2 + Math.cos(t) * 1200 - width / 2,
    y = WORLD / 2 + Math.sin(t) * 1200 - height / 2;
  camera.position.set(-x, -y);
  culler.cull(tree, x, y, x + width, y + height);
  culler.placeVisible(Position); // only the sprites in view move
  overlay.draw(tree, x, y, x + width, y + height); // only the nodes in view
  hud.update(getStats(world), ticker.elapsedMS);
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
  hud: string;
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
  get hud() {
    return hud.text.text;
  },
  renderer: app.renderer.name,
};
