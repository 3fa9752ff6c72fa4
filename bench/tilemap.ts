/**
 * The tilemap scene: a top-down arena whose level is a 200 x 200 map of 16 px tiles (about
 * 12,000 walls), with 300 circle enemies, swept bullets and bursts of sparks, in the bitECS
 * face. Three ways to make the walls: the library's tile layer (`addTileLayer`), one static
 * entity per wall tile, and rectangles merged beforehand (greedy meshing, as a game would do
 * by hand). Load time (cold: a fresh process; warm: after a few loads), memory, and the frame's
 * sync + collision time, the three worlds played frame by frame in turn.
 */

import { spawnSync } from 'node:child_process';
import { addComponent, addEntity, createWorld, deleteWorld, removeEntity, type World } from 'bitecs';
import {
  addQuadtree,
  addTileLayer,
  Circle,
  getQuadtree,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  removeQuadtree,
  Static,
  Swept,
  TileLayer,
  LooseQuadtree,
  type CollisionStore,
} from '../src/index.js';
import { mulberry32 } from './scene.js';
import { renderTable } from './report.js';
import { median } from './summary.js';

const COLS = 200,
  ROWS = 200,
  TILE = 16;
const SIDE = COLS * TILE;
const WALL = 1,
  ENEMY = 2,
  BULLET = 4,
  SPARK = 8;

export type WallKind = 'layer' | 'tiles' | 'merged';
export const WALL_KINDS: WallKind[] = ['layer', 'tiles', 'merged'];
const CORE_NAMES: Record<WallKind, string> = {
  layer: 'core: `TileLayer`',
  tiles: 'core: one static item per wall tile',
  merged: 'core: rectangles merged beforehand',
};
const NAMES: Record<WallKind, string> = {
  layer: '`addTileLayer` (merged by the library)',
  tiles: 'one static entity per wall tile',
  merged: 'rectangles merged beforehand (greedy meshing)',
};

/** The arena's tiles: a thick border, rooms with doorways, pillars and blocks; 1 is a wall. */
export function arenaMap(seed: number): number[] {
  const rnd = mulberry32(seed);
  const data = new Array<number>(COLS * ROWS).fill(0);
  let walls = 0;
  const fill = (c0: number, r0: number, w: number, h: number) => {
    for (let r = Math.max(0, r0); r < Math.min(ROWS, r0 + h); r++)
      for (let c = Math.max(0, c0); c < Math.min(COLS, c0 + w); c++) {
        walls += 1 - data[r * COLS + c];
        data[r * COLS + c] = 1;
      }
  };
  fill(0, 0, COLS, 3);
  fill(0, ROWS - 3, COLS, 3);
  fill(0, 0, 3, ROWS);
  fill(COLS - 3, 0, 3, ROWS);
  // Room walls every 25 tiles, two thick, with a doorway in each room's side.
  for (let k = 25; k < COLS; k += 25) {
    for (let start = 0; start < ROWS; start += 25) {
      const door = start + 6 + Math.floor(rnd() * 10);
      fill(k, start, 2, door - start);
      fill(k, door + 5, 2, start + 25 - door - 5);
      fill(start, k, door - start, 2);
      fill(door + 5, k, start + 25 - door - 5, 2);
    }
  }
  // Pillars and blocks until about 12,000 walls.
  while (walls < 12_000) {
    const w = 1 + Math.floor(rnd() * 5),
      h = 1 + Math.floor(rnd() * 5);
    fill(4 + Math.floor(rnd() * (COLS - 8)), 4 + Math.floor(rnd() * (ROWS - 8)), w, h);
  }
  return data;
}

/** Greedy meshing: from each uncovered wall tile, the longest run right, then down while the whole run is wall. */
export function greedyRects(data: number[]): number[] {
  const covered = new Uint8Array(data.length);
  const out: number[] = [];
  for (let r = 0; r < ROWS; r++) {
    for (let c = 0; c < COLS; c++) {
      if (data[r * COLS + c] === 0 || covered[r * COLS + c] !== 0) continue;
      let e = c;
      while (e + 1 < COLS && data[r * COLS + e + 1] !== 0 && covered[r * COLS + e + 1] === 0) e++;
      let b = r;
      const rowFree = (rr: number) => {
        for (let x = c; x <= e; x++) if (data[rr * COLS + x] === 0 || covered[rr * COLS + x] !== 0) return false;
        return true;
      };
      while (b + 1 < ROWS && rowFree(b + 1)) b++;
      for (let rr = r; rr <= b; rr++) covered.fill(1, rr * COLS + c, rr * COLS + e + 1);
      out.push(c, r, e, b);
    }
  }
  return out;
}

/** A world's own components: the plugin's are shared by every world of the process, and entity ids are not. */
class Stores {
  readonly position = { x: [] as number[], y: [] as number[] };
  readonly bounds = { width: [] as number[], height: [] as number[] };
  readonly collider = { layer: [] as number[], mask: [] as number[], priority: [] as number[] };
  readonly collision: CollisionStore = { a: [], b: [], priority: [], phase: [], startedAt: [] };
}

const worlds = new WeakMap<World, Stores>();
const storesOf = (w: World): Stores => worlds.get(w) as Stores;

function newWorld(): World {
  const stores = new Stores();
  const { position, bounds, collider, collision } = stores;
  const w = addQuadtree(createWorld(), { width: SIDE, height: SIDE, position, bounds, collider, collision });
  worlds.set(w, stores);
  return w;
}

function wallEntity(w: World, minX: number, minY: number, maxX: number, maxY: number): void {
  const { position, bounds, collider } = storesOf(w);
  const eid = addEntity(w);
  position.x[eid] = (minX + maxX) / 2;
  position.y[eid] = (minY + maxY) / 2;
  bounds.width[eid] = maxX - minX;
  bounds.height[eid] = maxY - minY;
  collider.layer[eid] = WALL;
  collider.mask[eid] = -1;
  collider.priority[eid] = 128;
  addComponent(w, eid, Static);
  addComponent(w, eid, collider);
  addComponent(w, eid, position);
  addComponent(w, eid, bounds);
}

/** Adds the walls the given way; returns the number of wall items. */
function addWalls(w: World, kind: WallKind, data: number[], rects: number[]): number {
  if (kind === 'layer') {
    return addTileLayer(w, { data, width: COLS, height: ROWS, tileWidth: TILE, tileHeight: TILE, layer: WALL })
      .rectCount;
  }
  if (kind === 'merged') {
    for (let i = 0; i < rects.length; i += 4)
      wallEntity(w, rects[i] * TILE, rects[i + 1] * TILE, (rects[i + 2] + 1) * TILE, (rects[i + 3] + 1) * TILE);
    return rects.length / 4;
  }
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    if (data[i] === 0) continue;
    const c = i % COLS,
      r = Math.floor(i / COLS);
    wallEntity(w, c * TILE, r * TILE, (c + 1) * TILE, (r + 1) * TILE);
    n++;
  }
  return n;
}

const frame = (w: World) => quadtreeCollisionSystem(quadtreeSyncSystem(w));

/** One load into a fresh world: the walls added and the first sync and collision step. */
function load(kind: WallKind, data: number[], rects: number[]): { ms: number; items: number; world: World } {
  const w = newWorld();
  const t0 = performance.now();
  const items = addWalls(w, kind, data, rects);
  frame(w);
  return { ms: performance.now() - t0, items, world: w };
}

/** The same walls in the core alone: a `TileLayer`, an item per tile, or the merged rectangles; then a step. */
function coreLoad(kind: WallKind, data: number[], rects: number[], tree: LooseQuadtree): number {
  if (kind === 'layer') {
    const layer = new TileLayer(tree, { data, width: COLS, height: ROWS, tileWidth: TILE, tileHeight: TILE, ids: 0 });
    tree.step();
    return layer.rectCount;
  }
  let id = 0;
  const add = (minX: number, minY: number, maxX: number, maxY: number) => {
    tree.insert(id, minX, minY, maxX, maxY);
    tree.setStatic(id++, true);
  };
  if (kind === 'merged') {
    for (let i = 0; i < rects.length; i += 4)
      add(rects[i] * TILE, rects[i + 1] * TILE, (rects[i + 2] + 1) * TILE, (rects[i + 3] + 1) * TILE);
  } else {
    for (let i = 0; i < data.length; i++) {
      const c = i % COLS,
        r = Math.floor(i / COLS);
      if (data[i] !== 0) add(c * TILE, r * TILE, (c + 1) * TILE, (r + 1) * TILE);
    }
  }
  tree.step();
  return id;
}

const newTree = () => new LooseQuadtree({ width: SIDE, height: SIDE });

/**
 * A door opened and closed in the core's `TileLayer`: five wall tiles of a row and one tile elsewhere, in one
 * `setTiles` call, the tree's updates included. Returns the median µs of 400 changes, half opening, half closing.
 */
function doorChanges(data: number[]): number {
  const tree = newTree();
  const layer = new TileLayer(tree, { data, width: COLS, height: ROWS, tileWidth: TILE, tileHeight: TILE, ids: 0 });
  tree.step();
  // The first run of five walls in a row past the border, and the first empty tile after it.
  const at = data.findIndex(
    (_, i) => i > 4 * COLS && i % COLS > 4 && i % COLS < COLS - 9 && data.slice(i, i + 5).every((t) => t === WALL),
  );
  const spare = data.indexOf(0, at + 5);
  const triples = (open: boolean): number[] => {
    const t: number[] = [];
    for (let c = 0; c < 5; c++) t.push((at % COLS) + c, Math.floor(at / COLS), open ? 0 : WALL);
    t.push(spare % COLS, Math.floor(spare / COLS), open ? WALL : 0);
    return t;
  };
  const open = triples(true),
    shut = triples(false);
  const us: number[] = [];
  // 200 first, unmeasured: the merge's code is compiled by then.
  for (let i = 0; i < 600; i++) {
    const t0 = performance.now();
    layer.setTiles(i % 2 === 0 ? open : shut);
    if (i >= 200) us.push((performance.now() - t0) * 1000);
    tree.step();
  }
  return median(us);
}

function dispose(w: World): void {
  removeQuadtree(w);
  deleteWorld(w);
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const heap = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Cold loads in this (fresh) process, the ECS's then the core's, printed as JSON for the parent. */
export function coldLoad(kind: WallKind, seed: number): void {
  const data = arenaMap(seed);
  const rects = greedyRects(data);
  // The world and the tree exist before: what is measured is what the walls add.
  const w = newWorld();
  const tree = newTree();
  gc();
  let before = heap();
  let t0 = performance.now();
  const items = addWalls(w, kind, data, rects);
  frame(w);
  const ms = performance.now() - t0;
  gc();
  const bytes = heap() - before;
  before = heap();
  t0 = performance.now();
  coreLoad(kind, data, rects, tree);
  const coreMs = performance.now() - t0;
  gc();
  const coreBytes = heap() - before;
  retained.push(w, tree); // alive through the collections that measure them
  console.log(JSON.stringify({ ms, bytes, items, coreMs, coreBytes }));
}

const retained: object[] = [];

/** The movers, the same in every world: enemies wander, bullets fly, sparks burst and die. */
class Movers {
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly vx: number[] = [];
  readonly vy: number[] = [];
  readonly size: number[] = [];
  readonly kind: number[] = [];
  readonly life: number[] = [];
  private readonly rnd: () => number;
  private frameNo = 0;

  constructor(seed: number) {
    this.rnd = mulberry32(seed ^ 0x5eed);
    for (let i = 0; i < 300; i++) this.spawn(ENEMY, this.rnd() * SIDE, this.rnd() * SIDE, 1.5, 12, -1);
    for (let i = 0; i < 100; i++) this.spawn(BULLET, this.rnd() * SIDE, this.rnd() * SIDE, 24, 4, -1);
  }

  private spawn(kind: number, x: number, y: number, speed: number, size: number, life: number): void {
    const a = this.rnd() * Math.PI * 2;
    this.x.push(x);
    this.y.push(y);
    this.vx.push(Math.cos(a) * speed);
    this.vy.push(Math.sin(a) * speed);
    this.size.push(size);
    this.kind.push(kind);
    this.life.push(life);
  }

  /** Moves everything; returns how many sparks at the end died (they are the last ones first). */
  step(): { born: number; died: number[] } {
    const died: number[] = [];
    for (let i = this.x.length - 1; i >= 0; i--) {
      if (this.life[i] > 0 && --this.life[i] === 0) died.push(i);
    }
    for (const i of died) this.removeAt(i);
    for (let i = 0; i < this.x.length; i++) {
      this.x[i] += this.vx[i];
      this.y[i] += this.vy[i];
      if (this.x[i] < 0 || this.x[i] > SIDE) this.vx[i] = -this.vx[i];
      if (this.y[i] < 0 || this.y[i] > SIDE) this.vy[i] = -this.vy[i];
    }
    let born = 0;
    if (this.frameNo++ % 6 === 0) {
      const x = this.rnd() * SIDE,
        y = this.rnd() * SIDE;
      for (let k = 0; k < 60; k++) this.spawn(SPARK, x, y, 3 + this.rnd() * 3, 3, 40);
      born = 60;
    }
    return { born, died };
  }

  private removeAt(i: number): void {
    for (const a of [this.x, this.y, this.vx, this.vy, this.size, this.kind, this.life]) a.splice(i, 1);
  }
}

/** A world with its walls and the movers as entities (index in Movers -> entity). */
class ArenaWorld {
  readonly world: World;
  readonly eids: number[] = [];
  readonly isMover = new Set<number>();
  stepMs: number[] = [];
  touching = 0;

  private readonly stores: Stores;

  constructor(kind: WallKind, data: number[], rects: number[], movers: Movers) {
    this.world = load(kind, data, rects).world;
    this.stores = storesOf(this.world);
    for (let i = 0; i < movers.x.length; i++) this.add(movers, i);
  }

  private add(m: Movers, i: number): void {
    const w = this.world;
    const { position, bounds, collider } = this.stores;
    const eid = addEntity(w);
    position.x[eid] = m.x[i];
    position.y[eid] = m.y[i];
    bounds.width[eid] = bounds.height[eid] = m.size[i];
    collider.layer[eid] = m.kind[i];
    collider.mask[eid] = m.kind[i] === ENEMY ? WALL | BULLET | ENEMY : WALL | ENEMY;
    collider.priority[eid] = m.kind[i] === SPARK ? 10 : 200;
    addComponent(w, eid, collider);
    addComponent(w, eid, position);
    addComponent(w, eid, bounds);
    if (m.kind[i] === ENEMY || m.kind[i] === SPARK) addComponent(w, eid, Circle);
    if (m.kind[i] === BULLET) addComponent(w, eid, Swept);
    this.eids.push(eid);
    this.isMover.add(eid);
  }

  frame(m: Movers, born: number, died: number[]): void {
    const w = this.world;
    for (const i of died) {
      removeEntity(w, this.eids[i]);
      this.isMover.delete(this.eids[i]);
      this.eids.splice(i, 1);
    }
    for (let i = m.x.length - born; i < m.x.length; i++) this.add(m, i);
    const { position } = this.stores;
    for (let i = 0; i < this.eids.length; i++) {
      position.x[this.eids[i]] = m.x[i];
      position.y[this.eids[i]] = m.y[i];
    }
    const t0 = performance.now();
    frame(w);
    this.stepMs.push(performance.now() - t0);
    // Check: movers touching a wall (the same in every world, whatever the walls are made of).
    const cur = getQuadtree(w).current;
    const seen = new Set<number>();
    for (let p = 0; p < cur.count; p++) {
      const a = cur.a[p],
        b = cur.b[p];
      if (this.isMover.has(a) !== this.isMover.has(b)) seen.add(this.isMover.has(a) ? a : b);
    }
    this.touching += seen.size;
  }
}

export interface TilemapResult {
  walls: number;
  items: Record<WallKind, number>;
  cold: Record<WallKind, { ms: number[]; bytes: number[]; coreMs: number[]; coreBytes: number[] }>;
  warm: Record<WallKind, number[]>;
  coreWarm: Record<WallKind, number[]>;
  step: Record<WallKind, number[]>;
  touching: Record<WallKind, number>;
  /** Per run, the median µs of one door change (see doorChanges). */
  door: number[];
}

export interface TilemapOptions {
  seed: number;
  runs: number;
  frames: number;
  warmup: number;
  /** The bench's own entry (to run a cold load in a fresh process), or null to skip cold loads. */
  script: string | null;
  log: (line: string) => void;
}

function perKind<T>(make: () => T): Record<WallKind, T> {
  return { layer: make(), tiles: make(), merged: make() };
}

export function runTilemap(o: TilemapOptions): TilemapResult {
  const data = arenaMap(o.seed);
  const rects = greedyRects(data);
  const res: TilemapResult = {
    walls: data.reduce((s, v) => s + v, 0),
    items: perKind(() => 0),
    cold: perKind(() => ({
      ms: [] as number[],
      bytes: [] as number[],
      coreMs: [] as number[],
      coreBytes: [] as number[],
    })),
    warm: perKind(() => [] as number[]),
    coreWarm: perKind(() => [] as number[]),
    step: perKind(() => [] as number[]),
    touching: perKind(() => 0),
    door: [],
  };
  o.log(`tilemap: ${res.walls} walls on ${COLS} x ${ROWS} tiles, ${rects.length / 4} rectangles merged beforehand`);
  for (let run = 0; run < o.runs; run++) {
    if (o.script !== null) {
      for (const kind of WALL_KINDS) {
        const child = spawnSync(
          process.execPath,
          ['--expose-gc', o.script, '--tilemap-cold', kind, '--seed', String(o.seed)],
          {
            encoding: 'utf8',
          },
        );
        const r = JSON.parse(child.stdout) as {
          ms: number;
          bytes: number;
          items: number;
          coreMs: number;
          coreBytes: number;
        };
        const cold = res.cold[kind];
        cold.ms.push(r.ms);
        cold.bytes.push(r.bytes);
        cold.coreMs.push(r.coreMs);
        cold.coreBytes.push(r.coreBytes);
        res.items[kind] = r.items;
      }
    }
    // Warm loads: a few unmeasured first, then measured ones, the kinds in turn.
    for (let k = 0; k < 10; k++) {
      for (const kind of WALL_KINDS) {
        const l = load(kind, data, rects);
        res.items[kind] = l.items;
        if (k >= 4) res.warm[kind].push(l.ms);
        dispose(l.world);
        const tree = newTree();
        const t0 = performance.now();
        coreLoad(kind, data, rects, tree);
        if (k >= 4) res.coreWarm[kind].push(performance.now() - t0);
      }
    }
    res.door.push(doorChanges(data));
    const movers = new Movers(o.seed + run);
    const worlds = WALL_KINDS.map((kind) => new ArenaWorld(kind, data, rects, movers));
    for (let f = 0; f < o.warmup + o.frames; f++) {
      const { born, died } = movers.step();
      for (const w of worlds) w.frame(movers, born, died);
      gc();
    }
    WALL_KINDS.forEach((kind, i) => {
      res.step[kind].push(...worlds[i].stepMs.slice(o.warmup));
      res.touching[kind] += worlds[i].touching;
      dispose(worlds[i].world);
    });
    o.log(`tilemap run ${run + 1}/${o.runs} done`);
  }
  return res;
}

const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const range = (v: number[]) =>
  v.length === 0 ? '-' : `${ms(median(v))} (${ms(Math.min(...v))}-${ms(Math.max(...v))})`;

export function tilemapSection(r: TilemapResult | null, markdown: boolean): string {
  if (r === null) return '';
  const mb = (bytes: number[]) => (bytes.length === 0 ? '-' : (median(bytes) / 2 ** 20).toFixed(2));
  const rows = [['walls', 'items', 'load cold ms', 'load warm ms', 'memory MB', 'frame ms (sync + collision)']];
  for (const kind of WALL_KINDS) {
    const c = r.cold[kind];
    rows.push([NAMES[kind], String(r.items[kind]), range(c.ms), range(r.warm[kind]), mb(c.bytes), range(r.step[kind])]);
  }
  for (const kind of WALL_KINDS) {
    const c = r.cold[kind];
    rows.push([CORE_NAMES[kind], String(r.items[kind]), range(c.coreMs), range(r.coreWarm[kind]), mb(c.coreBytes), '']);
  }
  const title = `Tilemap arena: ${COLS} x ${ROWS} tiles of ${TILE} px, ${r.walls} walls; 300 circle enemies, 100 swept bullets, sparks in bursts (about 400 alive)`;
  const same = WALL_KINDS.every((k) => r.touching[k] === r.touching.layer);
  const check = same
    ? `movers touching a wall, summed over the frames: ${r.touching.layer} in each world`
    : `MISMATCH of movers touching a wall: ${WALL_KINDS.map((k) => `${k} ${r.touching[k]}`).join(', ')}`;
  const door =
    `Changing tiles (core \`TileLayer\`): five wall tiles of a row and one tile elsewhere, opened or closed in one ` +
    `\`setTiles\` call, the tree's updates included: ${range(r.door)} µs (median of 400 changes per run; min-max over runs).`;
  const legend =
    'Cells: median (min-max). Load: the walls added to an existing world (or tree) and the first sync and ' +
    'collision step (or `step()`); cold in a fresh process, warm after four loads. Memory: heap and array ' +
    'buffers the walls added, in the cold process. Frame: the three worlds played frame by frame in turn.';
  return markdown
    ? `### ${title}\n\n${renderTable(rows, true)}\n\n${legend} Check: ${check}.\n\n${door}`
    : `${title}\n${renderTable(rows, false)}\n${legend}\nCheck: ${check}\n${door}`;
}

/** Errors of the check, for the bench's exit code. */
export function tilemapMismatches(r: TilemapResult | null): string[] {
  if (r === null) return [];
  return WALL_KINDS.filter((k) => r.touching[k] !== r.touching.layer).map(
    (k) => `tilemap: movers touching walls with ${k} ${r.touching[k]}, with the layer ${r.touching.layer}`,
  );
}
