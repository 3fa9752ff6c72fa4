/**
 * Snapshots for rollback: the time to save and to restore the whole collision state, the
 * bytes a snapshot holds and the bytes a save copies (the parts of the buffers in use), for the
 * bouncing boxes (a tenth moving, in the core and through a bitECS world; all moving, joined
 * whole on a grid each step, in the core; as bytes restored into a new tree) and the storm, after
 * the scene has run a while; and a whole bitECS world with `saveWorld`, in memory and as bytes
 * restored into a new world. Saves reuse one snapshot, as a rollback loop's ring of them does.
 * Rapier's `world.takeSnapshot()` and `World.restoreSnapshot` are timed beside them on the same
 * core scenes (its snapshot is a new buffer each save, its restore a new world).
 *
 *   npx tsx --expose-gc bench/snapshot.ts [--n 10000,100000] [--repeats 200]
 */
import { parseArgs } from 'node:util';
import { addComponent, addEntity, createWorld } from 'bitecs';
import {
  addQuadtree,
  getQuadtree,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  restoreQuadtree,
  restoreWorld,
  saveQuadtree,
  saveWorld,
  saveTree,
  restoreTree,
  snapshotFromBytes,
  snapshotToBytes,
  LooseQuadtree,
  worldFromBytes,
  worldToBytes,
} from '../src/index.js';
import RAPIER from '@dimforge/rapier2d-compat';
import { PairSum } from './contender.js';
import { coreFrame, coreOver } from './ours.js';
import { initRapier, RapierWorld, stepWorld } from './rapier.js';
import { Scene } from './scene.js';
import { StormScene } from './storm-scene.js';
import { median } from './summary.js';

interface Row {
  engine: string;
  scene: string;
  n: number;
  pairs: number;
  save: number;
  restore: number;
  bytesPerItem: number;
  copiedPerItem: number;
}

/** What is measured: a frame of the scene, and a save and a restore of its collision state. */
interface Subject {
  frame(): void;
  save(): void;
  restore(): void;
  pairs(): number;
  /** Bytes the snapshot holds, and the bytes its last save copied. */
  held(): number;
  copied(): number;
}

/** The core tree over the scene. */
function coreSubject(scene: Scene | StormScene): Subject {
  const tree = coreOver(scene);
  const sum = new PairSum();
  const snap = saveTree(tree);
  return {
    frame: () => {
      scene.advance();
      sum.reset();
      coreFrame(tree, scene, sum);
    },
    save: () => saveTree(tree, snap),
    restore: () => restoreTree(tree, snap),
    pairs: () => tree.current.count,
    held: () => snap.byteLength,
    copied: () => snap.used.reduce((sum, n) => sum + n, 0),
  };
}

/** The core tree over the scene, saved as bytes (over the last save's) and restored into a new tree each time, as another process would. */
function bytesSubject(scene: Scene): Subject {
  let tree = coreOver(scene);
  const sum = new PairSum();
  const snap = saveTree(tree);
  let bytes: Uint8Array = new Uint8Array(0);
  return {
    frame: () => {
      scene.advance();
      sum.reset();
      coreFrame(tree, scene, sum);
    },
    save: () => {
      bytes = snapshotToBytes(saveTree(tree, snap), bytes);
    },
    restore: () => {
      const fresh = new LooseQuadtree({ width: scene.side, height: scene.side });
      restoreTree(fresh, snapshotFromBytes(fresh, bytes));
      tree = fresh;
    },
    pairs: () => tree.current.count,
    held: () => bytes.length,
    copied: () => bytes.length,
  };
}

/**
 * The bouncing boxes through a bitECS world (pair entities off): `saveQuadtree` saves the
 * plugin's state beside the tree; `saveWorld` (whole) the world's entities, components and
 * queries too.
 */
function worldSubject(scene: Scene, whole: boolean, asBytes = false): Subject {
  const position = { x: [] as number[], y: [] as number[] };
  const bounds = { width: [] as number[], height: [] as number[] };
  const setUp = () =>
    addQuadtree(createWorld(), { width: scene.side, height: scene.side, pairEntities: false, position, bounds });
  let world = setUp();
  for (let i = 0; i < scene.n; i++) {
    const eid = addEntity(world);
    addComponent(world, eid, position);
    addComponent(world, eid, bounds);
    bounds.width[eid] = scene.w[i];
    bounds.height[eid] = scene.h[i];
  }
  const place = (): void => {
    for (let i = 0; i < scene.n; i++) {
      position.x[i + 1] = scene.minX[i] + scene.w[i] * 0.5;
      position.y[i + 1] = scene.minY[i] + scene.h[i] * 0.5;
    }
  };
  place();
  quadtreeCollisionSystem(quadtreeSyncSystem(world));
  const frame = (): void => {
    scene.advance();
    place();
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
  };
  const pairs = (): number => getQuadtree(world).current.count;
  if (asBytes) {
    const all = saveWorld(world);
    let bytes: Uint8Array = new Uint8Array(0);
    return {
      frame,
      save: () => {
        bytes = worldToBytes(saveWorld(world, all), bytes);
      },
      // Into a new world set up the same way, as another process would.
      restore: () => {
        const fresh = setUp();
        restoreWorld(fresh, worldFromBytes(fresh, bytes));
        world = fresh;
      },
      pairs,
      held: () => bytes.length,
      copied: () => bytes.length,
    };
  }
  if (whole) {
    const all = saveWorld(world);
    return {
      frame,
      save: () => saveWorld(world, all),
      restore: () => restoreWorld(world, all),
      pairs,
      held: () => all.byteLength,
      copied: () => all.byteLength,
    };
  }
  const snap = saveQuadtree(world);
  return {
    frame,
    save: () => saveQuadtree(world, snap),
    restore: () => restoreQuadtree(world, snap),
    pairs,
    held: () => snap.byteLength,
    copied: () => snap.state.used.reduce((sum, n) => sum + n, 0),
  };
}

/** The same scene in a Rapier world: its whole world is the collision state saved. */
function rapierSubject(scene: Scene | StormScene): Subject {
  const { world: first, colliders } = new RapierWorld(scene);
  let world = first;
  const events = new RAPIER.EventQueue(true);
  let snap = world.takeSnapshot();
  return {
    frame: () => {
      scene.advance();
      stepWorld(scene, world, colliders, events);
    },
    save: () => {
      snap = world.takeSnapshot();
    },
    restore: () => {
      world.free();
      world = RAPIER.World.restoreSnapshot(snap);
    },
    pairs: () => {
      let count = 0;
      for (const h of colliders)
        world.intersectionPairsWith(world.getCollider(h), (other) => (count += other.handle > h ? 1 : 0));
      return count;
    },
    held: () => snap.byteLength,
    copied: () => snap.byteLength,
  };
}

const collect: () => void = (globalThis as { gc?: () => void }).gc ?? (() => {});

function measure(subject: Subject, label: string, n: number, repeats: number, engine = 'bitecs-quadtree'): Row {
  for (let f = 0; f < 20; f++) subject.frame();
  const saves: number[] = [];
  const restores: number[] = [];
  for (let r = 0; r < repeats; r++) {
    // A frame between, as in a game: the restore then undoes a real step.
    subject.frame();
    // The garbage of earlier restores into new trees and worlds is collected before, not in, what is timed.
    collect();
    const t0 = performance.now();
    subject.save();
    const t1 = performance.now();
    subject.frame();
    collect();
    const t2 = performance.now();
    subject.restore();
    const t3 = performance.now();
    saves.push(t1 - t0);
    restores.push(t3 - t2);
  }
  return {
    engine,
    scene: label,
    n,
    pairs: subject.pairs(),
    save: median(saves),
    restore: median(restores),
    bytesPerItem: subject.held() / n,
    copiedPerItem: subject.copied() / n,
  };
}

async function main(): Promise<void> {
  await initRapier();
  const { values } = parseArgs({
    options: { n: { type: 'string', default: '10000,100000' }, repeats: { type: 'string', default: '200' } },
  });
  const rows: Row[] = [];
  for (const n of values.n.split(',').map(Number)) {
    const repeats = Math.max(10, Math.round(Number(values.repeats) * Math.min(1, 10_000 / n)));
    rows.push(measure(coreSubject(new Scene(n, '10')), 'bounce, 10% moving', n, repeats));
    rows.push(measure(coreSubject(new Scene(n, 'all')), 'bounce, all moving', n, repeats));
    rows.push(measure(bytesSubject(new Scene(n, '10')), 'bounce, as bytes', n, repeats));
    const storm = new StormScene(n);
    rows.push(measure(coreSubject(storm), 'storm', storm.n, repeats));
    rows.push(measure(worldSubject(new Scene(n, '10'), false), 'bounce, saveQuadtree', n, repeats));
    rows.push(measure(worldSubject(new Scene(n, '10'), true), 'bounce, saveWorld', n, repeats));
    rows.push(measure(worldSubject(new Scene(n, '10'), true, true), 'bounce, world as bytes', n, repeats));
    rows.push(measure(rapierSubject(new Scene(n, '10')), 'bounce, 10% moving', n, repeats, 'Rapier'));
    rows.push(measure(rapierSubject(new Scene(n, 'all')), 'bounce, all moving', n, repeats, 'Rapier'));
    const rapierStorm = new StormScene(n);
    rows.push(measure(rapierSubject(rapierStorm), 'storm', rapierStorm.n, repeats, 'Rapier'));
  }
  console.log(
    'engine           scene                 items    pairs   save ms  restore ms  both ms  held B/item  copied B/item',
  );
  for (const r of rows) {
    console.log(
      `${r.engine.padEnd(16)} ${r.scene.padEnd(20)} ${String(r.n).padStart(7)} ${String(r.pairs).padStart(8)} ${r.save.toFixed(3).padStart(9)} ${r.restore.toFixed(3).padStart(11)} ${(r.save + r.restore).toFixed(3).padStart(8)} ${r.bytesPerItem.toFixed(0).padStart(12)} ${r.copiedPerItem.toFixed(0).padStart(14)}`,
    );
  }
}

await main();
