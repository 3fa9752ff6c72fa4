/**
 * Queries, timed alone: the bench's bouncing boxes (4-160 px, 400 px² of world an item) placed
 * and still, queried with 1,000 rectangles of 50-400 px, 1,000 circles, 1,000 nearest-8 and
 * 1,000 rays a frame, against flatbush and rbush (closed boxes, as the tree with `touching`);
 * then every box moving each frame (a detached class), the tree alone, its rectangles timed
 * after each step. Every frame's rectangle hit count is checked against flatbush's.
 *
 *   npx tsx bench/queries.ts [--n 10000,100000] [--frames 30] [--runs 3]
 */
import Flatbush from 'flatbush';
import RBush from 'rbush';
import { parseArgs } from 'node:util';
import { LooseQuadtree } from '../src/core/index.js';
import { fmt } from './format.js';
import { mulberry32, Scene } from './scene.js';
import { median } from './summary.js';

const QUERIES = 1000;

/** One frame's queries: rectangles as corners, then centres and radii, then ray directions. */
function makeQueries(side: number, seed: number): Float64Array {
  const rng = mulberry32(seed);
  const q = new Float64Array(QUERIES * 5);
  for (let i = 0; i < QUERIES; i++) {
    const x = rng() * side,
      y = rng() * side,
      s = 50 + rng() * 350;
    q.set([x, y, x + s, y + s * (0.5 + rng()), rng() * 2 * Math.PI], 5 * i);
  }
  return q;
}

type Timings = Record<string, number[]>;

function time(t: Timings, key: string, fn: () => number): number {
  const start = performance.now();
  const hits = fn();
  (t[key] ??= []).push(performance.now() - start);
  return hits;
}

function run(n: number, frames: number, seed: number, t: Timings): void {
  const scene = new Scene(n, 'all', seed);
  const tree = new LooseQuadtree({ width: scene.side, height: scene.side, touching: true });
  const flat = new Flatbush(n);
  const rbush = new RBush<{ minX: number; minY: number; maxX: number; maxY: number }>();
  const boxes = [];
  for (let i = 0; i < n; i++) {
    const box = { minX: scene.minX[i], minY: scene.minY[i], maxX: scene.maxX[i], maxY: scene.maxY[i] };
    tree.insert(i, box.minX, box.minY, box.maxX, box.maxY);
    flat.add(box.minX, box.minY, box.maxX, box.maxY);
    boxes.push(box);
  }
  flat.finish();
  rbush.load(boxes);
  // Two steps without moves: the items are placed in the tree's nodes, as a level's walls are.
  tree.step();
  tree.step();
  const out: number[] = [];
  const dist: number[] = [];
  const hit = { id: -1, distance: 0 };
  const box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
  for (let f = 0; f < frames; f++) {
    const q = makeQueries(scene.side, seed + f);
    const ours = time(t, 'rect, bitecs-quadtree', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += tree.queryRect(q[i], q[i + 1], q[i + 2], q[i + 3], out);
      return h;
    });
    const theirs = time(t, 'rect, flatbush', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += flat.search(q[i], q[i + 1], q[i + 2], q[i + 3]).length;
      return h;
    });
    time(t, 'rect, rbush', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) {
        box.minX = q[i];
        box.minY = q[i + 1];
        box.maxX = q[i + 2];
        box.maxY = q[i + 3];
        h += rbush.search(box).length;
      }
      return h;
    });
    if (ours !== theirs) throw new Error(`frame ${f}: ${ours} rectangle hits, flatbush ${theirs}`);
    time(t, 'circle, bitecs-quadtree', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += tree.queryCircle(q[i], q[i + 1], (q[i + 2] - q[i]) / 2, out);
      return h;
    });
    time(t, 'nearest 8, bitecs-quadtree', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += tree.nearest(q[i], q[i + 1], 8, Infinity, out, dist);
      return h;
    });
    time(t, 'nearest 8, flatbush', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += flat.neighbors(q[i], q[i + 1], 8).length;
      return h;
    });
    time(t, 'ray of 2,000 px, bitecs-quadtree', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) {
        if (tree.raycast(q[i], q[i + 1], Math.cos(q[i + 4]), Math.sin(q[i + 4]), 2000, hit)) h++;
      }
      return h;
    });
  }
  // Every box moving: the class is joined whole each step, and queries read its run.
  for (let f = 0; f < frames + 3; f++) {
    scene.advance();
    for (let i = 0; i < n; i++) tree.move(i, scene.minX[i], scene.minY[i], scene.maxX[i], scene.maxY[i]);
    tree.step();
    if (f < 3) continue;
    const q = makeQueries(scene.side, seed + f);
    time(t, 'rect, bitecs-quadtree, every box moving', () => {
      let h = 0;
      for (let i = 0; i < 5 * QUERIES; i += 5) h += tree.queryRect(q[i], q[i + 1], q[i + 2], q[i + 3], out);
      return h;
    });
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      n: { type: 'string', default: '10000,100000' },
      frames: { type: 'string', default: '30' },
      runs: { type: 'string', default: '3' },
    },
  });
  for (const n of values.n.split(',').map(Number)) {
    const medians: Record<string, number[]> = {};
    for (let r = 0; r < Number(values.runs); r++) {
      const t: Timings = {};
      run(n, Number(values.frames), 1 + r, t);
      for (const [key, ms] of Object.entries(t)) (medians[key] ??= []).push(median(ms));
    }
    console.log(
      `${n.toLocaleString('en')} boxes: ms per ${QUERIES.toLocaleString('en')} queries (median frame, median and range over runs)`,
    );
    for (const [key, ms] of Object.entries(medians)) {
      console.log(`  ${key.padEnd(40)} ${fmt(median(ms))} (${fmt(Math.min(...ms))}-${fmt(Math.max(...ms))})`);
    }
  }
}

main();
