import { describe, expect, it } from 'vitest';
import {
  LooseQuadtree,
  QuadtreeSnapshot,
  Shape,
  type RayHit,
  validateTree,
  saveTree,
  restoreTree,
  snapshotFromBytes,
  snapshotToBytes,
} from '../../src/core/index.js';
import { TileLayer } from '../../src/tilemap/index.js';
import { Rng } from './helpers.js';

/**
 * The rollback oracle: a script of frames (inserts with recycled and far ids, moves, removals,
 * colliders, statics, circles, swept items, budgets switched on and off, tile changes, pending
 * inserts, clears, queries; in two runs a swarm whose class is joined whole on a grid in waves)
 * runs once straight through, and once with snapshots saved at random frames and restored at
 * others, replaying from there. Every frame's output (the three pair lists with priorities,
 * start steps, stats, query answers, contacts, times of impact, paths) must be the same in
 * both, number for number.
 *
 * Long runs (see `npm run fuzz`): `ORACLE_STEPS` frames per run, `ORACLE_SEED` shifts the seeds.
 */
const FRAMES = Number(process.env.ORACLE_STEPS ?? 0) || 260;
const SEED_SHIFT = Number(process.env.ORACLE_SEED ?? 0);

const WORLD = 512;
const TILE = 16;
const COLS = 32;
const ROWS = 32;
const TILE_IDS = 50_000;

type Op = number[];
const INSERT = 0,
  QUEUE = 1,
  MOVE = 2,
  REMOVE = 3,
  COLLIDER = 4,
  STATIC = 5,
  SHAPE = 6,
  SWEPT = 7,
  BUDGET = 8,
  TILE_SET = 9,
  FLUSH = 10,
  CLEAR = 11,
  TICK = 12,
  QUERY = 13;

interface Item {
  box: [number, number, number, number];
  circle: boolean;
  swept: boolean;
}

/** Ids of the swarm: dust that all moves every frame, so that its class is joined whole on a grid. */
const SWARM_IDS = 60_000;
const SWARM = 1500;

/**
 * Writes a frame script from a model of which ids are in the tree; the tree never steers it.
 * With `swarm`, a class of dust (more than the items a class needs to be joined whole) moves
 * every frame, and some of it dies and is born again.
 */
function script(seed: number, frames: number, withTiles: boolean, swarm = false): Op[][] {
  const rng = new Rng(seed);
  const dust = new Map<number, [number, number]>();
  const items = new Map<number, Item>();
  const removed: number[] = [];
  const out: Op[][] = [];
  const q = (v: number) => Math.round(v * 4) / 4;
  const box = (): [number, number, number, number] => {
    const crowd = rng.chance(0.5);
    const x = crowd ? rng.range(100, 220) : rng.range(-40, WORLD + 40);
    const y = crowd ? rng.range(100, 220) : rng.range(-40, WORLD + 40);
    const w = rng.chance(0.05) ? rng.range(100, 600) : rng.range(0, 24);
    const h = rng.chance(0.2) ? w : rng.range(0, 24);
    return [q(x), q(y), q(x + w), q(y + h)];
  };
  const any = (): number => {
    const keys = [...items.keys()];
    return keys[rng.int(keys.length)];
  };
  for (let f = 0; f < frames; f++) {
    const ops: Op[] = [];
    if (swarm) {
      // In waves: all of it moving for 30 frames, then a few for 20, so that the class is joined
      // whole, then placed in nodes again, between saves and restores.
      const stir = f % 50 < 30 ? 1 : 0.02;
      for (let i = 0; i < SWARM; i++) {
        const id = SWARM_IDS + i;
        let at = dust.get(id);
        if (at !== undefined && rng.chance(0.01)) {
          dust.delete(id);
          ops.push([REMOVE, id]);
          continue;
        }
        if (at === undefined) {
          if (f > 0 && !rng.chance(0.05)) continue;
          at = [q(rng.range(0, WORLD)), q(rng.range(0, WORLD))];
          dust.set(id, at);
          ops.push([INSERT, id, at[0], at[1], at[0] + 3, at[1] + 3], [COLLIDER, id, 8, 9, rng.pick([0, 128])]);
          continue;
        }
        if (!rng.chance(stir)) continue;
        at[0] = Math.min(WORLD, Math.max(0, at[0] + q(rng.range(-3, 3))));
        at[1] = Math.min(WORLD, Math.max(0, at[1] + q(rng.range(-3, 3))));
        ops.push([MOVE, id, at[0], at[1], at[0] + 3, at[1] + 3]);
      }
    }
    // Bursts while the population is small enough that long runs stay quick.
    const burst = items.size < 1500 && rng.chance(0.03) ? 150 + rng.int(300) : 0;
    const count = burst + rng.int(24);
    for (let k = 0; k < count; k++) {
      const r = rng.next();
      if (items.size < 20 || (r < 0.22 && items.size < 2000) || k < burst) {
        const id =
          removed.length > 0 && rng.chance(0.4)
            ? removed.splice(rng.int(removed.length), 1)[0]
            : rng.chance(0.02)
              ? 90_000 + rng.int(10_000)
              : rng.int(3000);
        if (items.has(id) || (id >= TILE_IDS && id < TILE_IDS + COLS * ROWS)) continue;
        const b = box();
        items.set(id, { box: b, circle: false, swept: false });
        ops.push([rng.chance(0.25) ? QUEUE : INSERT, id, ...b]);
        continue;
      }
      const id = any();
      const item = items.get(id)!;
      if (r < 0.6) {
        const dx = q(rng.range(-6, 6)),
          dy = q(rng.range(-6, 6));
        const [x0, y0, x1, y1] = rng.chance(0.1) ? box() : item.box;
        let b: [number, number, number, number] = [x0 + dx, y0 + dy, x1 + dx, y1 + dy];
        if (item.circle) b = [b[0], b[1], b[2], b[1] + (b[2] - b[0])];
        item.box = b;
        ops.push([MOVE, id, ...b]);
      } else if (r < 0.7) {
        items.delete(id);
        removed.push(id);
        ops.push([REMOVE, id]);
      } else if (r < 0.78) {
        ops.push([
          COLLIDER,
          id,
          1 << rng.int(3),
          rng.pick([-1, -1, 3, 5, 6, 1]),
          rng.pick([0, 64, 128, 128, 200, 255]),
        ]);
      } else if (r < 0.83) {
        ops.push([STATIC, id, rng.chance(0.3) ? 1 : 0]);
      } else if (r < 0.88) {
        // Both ends of a swept item's path would have to be square: shapes change when still.
        if (item.swept) continue;
        if (!item.circle) {
          const [x0, y0, x1] = item.box;
          item.box = [x0, y0, x1, y0 + (x1 - x0)];
          ops.push([MOVE, id, ...item.box]);
        }
        item.circle = !item.circle;
        ops.push([SHAPE, id, item.circle ? 1 : 0]);
      } else if (r < 0.93) {
        item.swept = rng.chance(0.6);
        ops.push([SWEPT, id, item.swept ? 1 : 0]);
      } else if (r < 0.95) {
        ops.push([BUDGET, rng.chance(0.4) ? -1 : rng.pick([0, 20, 100]), 1 + rng.int(3)]);
      } else if (r < 0.98) {
        if (withTiles) ops.push([TILE_SET, rng.int(COLS), rng.int(ROWS), rng.chance(0.5) ? 0 : 1 + rng.int(3)]);
      } else {
        ops.push([rng.chance(0.5) ? FLUSH : QUERY]);
      }
    }
    // clear() takes the tile layer's rectangles too: only in runs without one.
    if (!withTiles && rng.chance(0.01)) {
      for (const id of items.keys()) removed.push(id);
      items.clear();
      dust.clear();
      ops.push([CLEAR]);
    }
    if (rng.chance(0.03)) ops.push([TICK]);
    out.push(ops);
  }
  return out;
}

/** The level: a wall round the edge and a few blocks. */
function tiles(seed: number): Uint8Array {
  const rng = new Rng(seed);
  const t = new Uint8Array(COLS * ROWS);
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++)
      t[r * COLS + c] = r === 0 || c === 0 || r === ROWS - 1 || c === COLS - 1 || rng.chance(0.08) ? 1 : 0;
  return t;
}

/** A tree and its tile layer, and the outputs of each frame as numbers. */
class Run {
  readonly tree = new LooseQuadtree({ width: WORLD, height: WORLD, touching: false });
  readonly layer: TileLayer | null;
  private readonly ids: number[] = [];
  private readonly dists: number[] = [];
  private readonly hit: RayHit = { id: -1, distance: 0 };
  private readonly contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
  private readonly path = [
    { minX: 0, minY: 0, maxX: 0, maxY: 0 },
    { minX: 0, minY: 0, maxX: 0, maxY: 0 },
  ];

  constructor(seed: number, withTiles: boolean) {
    this.layer = !withTiles
      ? null
      : new TileLayer(this.tree, {
          data: tiles(seed),
          width: COLS,
          height: ROWS,
          tileWidth: TILE,
          tileHeight: TILE,
          layer: 4,
          ids: TILE_IDS,
        });
  }

  /** Applies a frame's ops, steps, and returns what the frame put out. */
  frame(ops: Op[]): number[] {
    const t = this.tree;
    const out: number[] = [];
    for (const op of ops) {
      const [kind, id] = op;
      switch (kind) {
        case INSERT:
          t.insert(id, op[2], op[3], op[4], op[5]);
          break;
        case QUEUE:
          t.insert(id, op[2], op[3], op[4], op[5]);
          break;
        case MOVE:
          t.move(id, op[2], op[3], op[4], op[5]);
          break;
        case REMOVE:
          t.remove(id);
          break;
        case COLLIDER:
          t.setCollider(id, op[2], op[3], op[4]);
          break;
        case STATIC:
          t.setStatic(id, op[2] === 1);
          break;
        case SHAPE:
          t.setShape(id, op[2] === 1 ? Shape.Circle : Shape.Box);
          break;
        case SWEPT:
          t.setSwept(id, op[2] === 1);
          break;
        case BUDGET:
          t.setBudget(id < 0 ? {} : { maxPairTests: id, minChecksPerTier: op[2] });
          break;
        case TILE_SET:
          this.layer!.setTile(op[1], op[2], op[3]);
          break;
        case FLUSH:
          out.push(-1, t.flush());
          break;
        case CLEAR:
          t.clear();
          break;
        case TICK:
          t.tick();
          break;
        case QUERY:
          this.queries(out);
          break;
      }
    }
    const s = t.step();
    out.push(-2, t.stepCount, t.size, t.pending);
    for (const key of Object.keys(s) as (keyof typeof s)[]) {
      const v = s[key];
      if (key === 'stepMs') continue;
      if (typeof v === 'number') out.push(v);
      else out.push(...v);
    }
    for (const list of [t.current, t.entered, t.exited]) {
      out.push(-3, list.count);
      for (let i = 0; i < list.count; i++) out.push(list.a[i], list.b[i], list.priority[i]);
    }
    const cur = t.current;
    for (let i = 0; i < cur.count; i += 1 + (cur.count >> 4)) {
      const a = cur.a[i],
        b = cur.b[i];
      t.contact(a, b, this.contact);
      const c = this.contact;
      out.push(t.pairStartedAt(a, b), t.timeOfImpact(a, b), c.nx, c.ny, c.depth, c.x, c.y);
      out.push(t.pairsOf(a, this.ids), ...this.ids);
      t.getPath(a, this.path[0], this.path[1]);
      for (const p of this.path) out.push(p.minX, p.minY, p.maxX, p.maxY);
    }
    this.queries(out);
    return out;
  }

  private queries(out: number[]): void {
    const t = this.tree;
    const { ids, dists, hit } = this;
    out.push(-4, t.queryRect(90, 90, 240, 240, ids), ...ids.slice().sort((a, b) => a - b));
    out.push(t.queryCircle(160, 160, 70, ids, 3), ...ids.slice().sort((a, b) => a - b));
    out.push(t.queryPoint(150, 150, ids), ...ids.slice().sort((a, b) => a - b));
    out.push(t.nearest(170, 140, 5, 400, ids, dists), ...ids, ...dists);
    out.push(t.raycast(10, 20, 1, 0.7, 600, hit) ? hit.id : -1, hit.distance);
  }
}

/** Runs `frames` frames straight through, and again with saves and restores; compares each frame. */
function rollbackRun(
  seed: number,
  frames: number,
  withTiles: boolean,
  swarm = false,
  viaBytes = false,
): { restores: number; replayed: number; grown: number; joinedWhole: number; placedAgain: number } {
  const ops = script(seed, frames, withTiles, swarm);
  const straight = new Run(seed, withTiles);
  let joinedWhole = 0,
    placedAgain = 0;
  const expected = ops.map((frameOps) => {
    const out = straight.frame(frameOps);
    if (anyDetached(straight.tree)) joinedWhole++;
    else if (joinedWhole > 0) placedAgain++;
    return out;
  });
  let run = new Run(seed, withTiles);
  const rng = new Rng(seed ^ 0x5eed);
  const ring: { snap: QuadtreeSnapshot; frame: number }[] = [];
  let restores = 0,
    replayed = 0,
    grown = 0,
    lastBytes = 0;
  // Each save's bytes are written over the last's, which held another state (bigger or smaller).
  let written: Uint8Array | undefined;
  let f = 0;
  let budget = frames * 3;
  while (f < frames && budget-- > 0) {
    if (rng.chance(0.2)) {
      // Saved before frame f runs; an old snapshot's memory is reused.
      const slot = ring.length < 6 ? null : ring.splice(rng.int(ring.length), 1)[0];
      const snap = saveTree(run.tree, slot?.snap);
      if (slot !== null && snap !== slot.snap) throw new Error('save did not reuse the snapshot it was given');
      if (snap.byteLength !== lastBytes) grown++;
      lastBytes = snap.byteLength;
      ring.push({ snap, frame: f });
    }
    const got = run.frame(ops[f]);
    if (
      f >= expected.length ||
      got.length !== expected[f].length ||
      got.some((v, i) => !Object.is(v, expected[f][i]))
    ) {
      const at = got.findIndex((v, i) => !Object.is(v, expected[f][i]));
      expect.fail(`seed ${seed}, frame ${f}: output differs at ${at} (got ${got[at]}, expected ${expected[f][at]})`);
    }
    f++;
    if (ring.length > 0 && rng.chance(0.12)) {
      const { snap, frame } = ring[rng.int(ring.length)];
      if (viaBytes) {
        // As another process would: a new tree with its tile layer made the same way takes the bytes.
        const next = new Run(seed, withTiles);
        written = snapshotToBytes(snap, written);
        if (Buffer.compare(written, snapshotToBytes(snap)) !== 0)
          expect.fail(`seed ${seed}, frame ${f}: bytes written over older ones differ from fresh ones`);
        restoreTree(next.tree, snapshotFromBytes(next.tree, written));
        run = next;
      } else {
        restoreTree(run.tree, snap);
      }
      expect(run.tree.stepCount).toBe(snap.stepCount);
      validateTree(run.tree);
      replayed += Math.max(0, f - frame);
      f = frame;
      restores++;
    }
  }
  return { restores, replayed, grown, joinedWhole, placedAgain };
}

/** Whether some class of the tree is joined whole on a grid each step (its items in no node). */
function anyDetached(tree: LooseQuadtree): boolean {
  const classes = (tree as unknown as { tree: { classes: { detached: Uint8Array } } }).tree.classes;
  return classes.detached.includes(1);
}

describe('rollback: save, run on, restore, replay', () => {
  for (const seed of [1, 2, 3, 4]) {
    const withTiles = seed <= 2;
    it(
      `replays every frame number for number (seed ${seed + SEED_SHIFT}, ${withTiles ? 'a tile layer' : 'clears'})`,
      () => {
        const { restores, replayed, grown } = rollbackRun(seed + SEED_SHIFT, FRAMES, withTiles);
        // The run went back often, far, and across growth of the tree's arrays.
        expect(restores).toBeGreaterThan(FRAMES / 20);
        expect(replayed).toBeGreaterThan(FRAMES / 4);
        expect(grown).toBeGreaterThan(1);
      },
      60_000 + FRAMES * 200,
    );
  }
  // The grid a swarm's class is joined on, the found pairs and their sort are rebuilt each step
  // and kept out of snapshots: a restore must not need them.
  for (const seed of [5, 6]) {
    const withTiles = seed === 5;
    it(
      `replays a swarm joined whole on a grid (seed ${seed + SEED_SHIFT}, ${withTiles ? 'a tile layer' : 'clears'})`,
      () => {
        const { restores, replayed, joinedWhole, placedAgain } = rollbackRun(
          seed + SEED_SHIFT,
          FRAMES,
          withTiles,
          true,
        );
        expect(restores).toBeGreaterThan(FRAMES / 20);
        expect(replayed).toBeGreaterThan(FRAMES / 4);
        // The swarm's class was joined whole, and placed in nodes again, for many frames each
        // (a refill after a clear is detached as it arrives, and may go back at the next step;
        // with clears, a long run spends about a fifth of its frames joined whole, or a little less).
        expect(joinedWhole).toBeGreaterThan(FRAMES / 6);
        expect(placedAgain).toBeGreaterThan(FRAMES / 10);
      },
      60_000 + FRAMES * 400,
    );
  }
});

describe('rollback through bytes: every restore into a new tree', () => {
  for (const [seed, withTiles, swarm] of [
    [7, true, false],
    [8, false, true],
  ] as const) {
    it(
      `replays every frame number for number (seed ${seed + SEED_SHIFT}, ${withTiles ? 'a tile layer' : 'a swarm'})`,
      () => {
        const { restores, replayed } = rollbackRun(seed + SEED_SHIFT, FRAMES, withTiles, swarm, true);
        expect(restores).toBeGreaterThan(FRAMES / 20);
        expect(replayed).toBeGreaterThan(FRAMES / 4);
      },
      60_000 + FRAMES * 400,
    );
  }
});

/** A small tree with pairs (of world width `width`, with a tile layer if `layer`), stepped once. */
function small(width = 256, layer = false): LooseQuadtree {
  const tree = new LooseQuadtree({ width, height: 256 });
  if (layer) new TileLayer(tree, { data: [1, 0, 0, 1], width: 2, height: 2, tileWidth: 8, tileHeight: 8, ids: 1000 });
  for (let id = 0; id < 40; id++)
    tree.insert(id, (id * 13) % 200, (id * 29) % 200, ((id * 13) % 200) + 20, ((id * 29) % 200) + 20);
  tree.step();
  return tree;
}

/** A tree's outputs after its last step, to show that nothing changed. */
function outputs(tree: LooseQuadtree): number[] {
  const out: number[] = [tree.size, tree.stepCount];
  for (const list of [tree.current, tree.entered, tree.exited])
    for (let i = 0; i < list.count; i++) out.push(list.a[i], list.b[i], list.priority[i]);
  return out;
}

describe('rollback: what restore refuses', () => {
  it('refuses what is not a snapshot, an empty one, and one of another tree, naming the problem', () => {
    const tree = small();
    const before = outputs(tree);
    expect(() => restoreTree(tree, JSON.parse('{}') as QuadtreeSnapshot)).toThrow(
      'bitecs-quadtree: restoreTree takes a snapshot made by saveTree (got an Object)',
    );
    expect(() => restoreTree(tree, new QuadtreeSnapshot())).toThrow(
      'bitecs-quadtree: restoreTree of a snapshot that holds nothing yet: pass it to saveTree first',
    );
    const other = small();
    expect(() => restoreTree(tree, saveTree(other))).toThrow(
      'bitecs-quadtree: restoreTree of a snapshot saved from another tree; a snapshot restores only its own',
    );
    expect(() => saveTree(tree, [] as unknown as QuadtreeSnapshot)).toThrow(
      'bitecs-quadtree: saveTree takes a snapshot to reuse, or nothing (got an Array)',
    );
    const snap = saveTree(tree);
    expect(() => saveTree({} as unknown as LooseQuadtree)).toThrow(
      'bitecs-quadtree: saveTree takes a LooseQuadtree (got an Object)',
    );
    expect(() => restoreTree(null as unknown as LooseQuadtree, snap)).toThrow(
      'bitecs-quadtree: restoreTree takes a LooseQuadtree (got null)',
    );
    expect(outputs(tree)).toEqual(before);
    validateTree(tree);
  });

  it('refuses a damaged snapshot and changes nothing', () => {
    const tree = small();
    const snap = saveTree(tree);
    tree.move(3, 0, 0, 100, 100);
    tree.remove(7);
    tree.step();
    const after = outputs(tree);
    const copies = snap.copies;
    const i = copies.findIndex((c) => c.length > 64);
    const kept = copies[i];
    copies[i] = kept.subarray(8);
    expect(() => restoreTree(tree, snap)).toThrow(
      `bitecs-quadtree: restore of a damaged snapshot (buffer ${i}: ${kept.length} bytes expected (got ${kept.length - 8})); nothing was changed`,
    );
    expect(outputs(tree)).toEqual(after);
    validateTree(tree);
    // Mended, it restores.
    copies[i] = kept;
    restoreTree(tree, snap);
    validateTree(tree);
    expect(tree.has(7)).toBe(true);
  });

  it('a tile layer made after the snapshot says so once the snapshot is restored', () => {
    const tree = small();
    const snap = saveTree(tree);
    const layer = new TileLayer(tree, {
      data: [1, 1, 0, 1],
      width: 2,
      height: 2,
      tileWidth: 8,
      tileHeight: 8,
      ids: 1000,
    });
    tree.step();
    expect(tree.has(1000)).toBe(true);
    expect(layer.owns(1000)).toBe(true);
    restoreTree(tree, snap);
    expect(tree.has(1000)).toBe(false);
    // Gone: it names no rectangle, though the ids may be the game's again.
    expect(layer.isGone).toBe(true);
    expect([layer.rectCount, layer.idAt(0, 0), layer.owns(1000)]).toEqual([0, -1, false]);
    const visited: number[] = [];
    layer.visitRects((id) => visited.push(id));
    expect(visited).toEqual([]);
    expect(() => layer.rectOf(1000, { col: 0, row: 0, width: 0, height: 0 })).toThrow(
      'bitecs-quadtree: tile layer rectOf: item 1000 is not a rectangle of this layer',
    );
    expect(() => layer.setTile(0, 0, 0)).toThrow(
      "bitecs-quadtree: tile layer setTile: the tree no longer holds this layer's rectangles (it was cleared, or restored to a snapshot saved before the layer was made)",
    );
    validateTree(tree);
  });

  it('a snapshot passed back to save is reused: no new memory while the tree keeps its size', () => {
    const tree = small();
    const snap = saveTree(tree);
    const copies = snap.copies.slice();
    const numbers = snap.numbers;
    for (let f = 0; f < 10; f++) {
      tree.move(f, f, f, f + 10, f + 10);
      tree.step();
      expect(saveTree(tree, snap)).toBe(snap);
    }
    expect(snap.numbers).toBe(numbers);
    expect(snap.copies.every((c, i) => c === copies[i])).toBe(true);
    expect(snap.stepCount).toBe(tree.stepCount);
  });
});

describe('snapshots as bytes: what reading them refuses', () => {
  const saved = small();
  saved.move(3, 0, 0, 90, 90);
  saved.step();
  const bytes = snapshotToBytes(saveTree(saved));

  it('reads bytes into a new tree, from a Uint8Array at any offset or an ArrayBuffer', () => {
    const shifted = new Uint8Array(bytes.length + 1).subarray(1);
    shifted.set(bytes);
    for (const input of [bytes, shifted, bytes.slice().buffer]) {
      const t = new LooseQuadtree({ width: 256, height: 256 });
      const snap = snapshotFromBytes(t, input);
      expect(t.size).toBe(0); // nothing changes until the restore
      restoreTree(t, snap);
      validateTree(t);
      expect(outputs(t)).toEqual(outputs(saved));
      expect(snap.stepCount).toBe(saved.stepCount);
    }
  });

  it('writes over the bytes it is given when they have room, else into new ones, the same bytes either way', () => {
    const snap = saveTree(saved);
    const dirty = new Uint8Array(bytes.length + 64).fill(0xa5);
    const over = snapshotToBytes(snap, dirty);
    expect(over.buffer).toBe(dirty.buffer);
    expect(Buffer.compare(over, bytes)).toBe(0);
    const short = new Uint8Array(bytes.length - 8);
    const fresh = snapshotToBytes(snap, short);
    expect(fresh.buffer).not.toBe(short.buffer);
    expect(Buffer.compare(fresh, bytes)).toBe(0);
    // A view not aligned to 8 bytes is not written over: the sections are read as typed arrays.
    const unaligned = snapshotToBytes(snap, dirty.subarray(4));
    expect(unaligned.buffer).not.toBe(dirty.buffer);
    expect(() => snapshotToBytes(snap, [] as unknown as Uint8Array)).toThrow(
      'bitecs-quadtree: snapshotToBytes takes bytes to write over, a Uint8Array, or nothing (got an Array)',
    );
  });

  it('refuses bad bytes, naming what is wrong, and changes nothing', () => {
    const t = small();
    const before = outputs(t);
    const refuse = (input: unknown, message: string, into: LooseQuadtree = t) =>
      expect(() => snapshotFromBytes(into, input as Uint8Array)).toThrow(`bitecs-quadtree: ${message}`);
    refuse('bytes', 'snapshotFromBytes takes a Uint8Array or an ArrayBuffer (got "bytes")');
    refuse(
      new Uint8Array(100),
      'snapshotFromBytes: these 100 bytes are not a snapshot written as bytes by this library',
    );
    refuse(new Uint8Array(3), 'snapshotFromBytes: these 3 bytes are not a snapshot written as bytes by this library');
    refuse(
      bytes.subarray(0, bytes.length - 8),
      `snapshotFromBytes: the snapshot is ${bytes.length} bytes long but ${bytes.length - 8} were given (truncated or padded)`,
    );
    const corrupt = bytes.slice();
    corrupt[corrupt.length >> 1] ^= 4;
    refuse(corrupt, 'snapshotFromBytes: the snapshot is corrupt (its checksum does not match its bytes)');
    const newer = bytes.slice();
    newer[4] = 2;
    refuse(newer, 'snapshotFromBytes: the snapshot is of format version 2; this library reads version 1');
    refuse(
      bytes,
      'snapshotFromBytes: the snapshot was saved with option width 256, this one has 300: make it with the same options',
      small(300),
    );
    refuse(
      bytes,
      'snapshotFromBytes: the snapshot was saved from state of another shape (other tile layers, handlers, or another version of the library): make the same tile layers on this tree first',
      small(256, true),
    );
    expect(() => snapshotFromBytes({} as unknown as LooseQuadtree, bytes)).toThrow(
      'bitecs-quadtree: snapshotFromBytes takes a LooseQuadtree (got an Object)',
    );
    expect(() => snapshotToBytes(new QuadtreeSnapshot())).toThrow(
      'bitecs-quadtree: snapshotToBytes takes a snapshot saved by saveTree (got a QuadtreeSnapshot)',
    );
    expect(() => snapshotToBytes(null as unknown as QuadtreeSnapshot)).toThrow(
      'bitecs-quadtree: snapshotToBytes takes a snapshot saved by saveTree (got null)',
    );
    expect(outputs(t)).toEqual(before);
    validateTree(t);
  });

  it('a snapshot read from bytes is restored again and again, like one saved in place', () => {
    const t = new LooseQuadtree({ width: 256, height: 256 });
    const snap = snapshotFromBytes(t, bytes);
    restoreTree(t, snap);
    const first = outputs(t);
    for (let f = 0; f < 5; f++) {
      for (let id = 0; id < 40; id += 2) t.move(id, f * 9, id * 5, f * 9 + 12, id * 5 + 12);
      t.step();
    }
    restoreTree(t, snap);
    validateTree(t);
    expect(outputs(t)).toEqual(first);
    // And saved anew into, as any snapshot of the tree.
    saveTree(t, snap);
    restoreTree(t, snap);
    expect(outputs(t)).toEqual(first);
  });
});
