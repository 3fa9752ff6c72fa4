import { Session } from 'node:inspector';
import { addComponent, addEntity, createWorld, removeEntity, type World } from 'bitecs';
import {
  addQuadtree,
  Bounds,
  Collider,
  forEachPair,
  getQuadtree,
  getStats,
  Phase,
  Position,
  quadtreeCollisionSystem,
  quadtreeSyncSystem,
  type PairVisitor,
  validateTree,
} from '../../src/index.js';
import { Rng } from './helpers.js';

/**
 * The scene of test/ecs/churn-alloc.test.ts, run by it in a process of its own under tsx, so
 * that the sources load as a game loads them (vitest's module transform calls imports through
 * getters, which keeps calls across modules from being inlined and boxes their numbers).
 *
 * bitECS allocates on every addEntity and removeEntity (its sets and arrays), so the heap of a
 * world with births and deaths grows and shrinks whatever the plugin does. A sampling heap
 * profile tells the two apart: it names the function that made each allocation, and the
 * script sums those made in the project's own sources. Prints one line of JSON.
 */
interface ProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: ProfileNode[];
}

const post = <T>(session: Session, method: string, params: object = {}): Promise<T> =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );

/** Bytes allocated by functions of `src/` while `run` executes, sampled every 1 KB, and where. */
async function allocatedBySources(run: () => void): Promise<{ bytes: number; where: string[] }> {
  const session = new Session();
  session.connect();
  await post(session, 'HeapProfiler.enable');
  await post(session, 'HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  run();
  const { profile } = await post<{ profile: { head: ProfileNode } }>(session, 'HeapProfiler.stopSampling');
  session.disconnect();
  let bytes = 0;
  const where: string[] = [];
  const walk = (node: ProfileNode): void => {
    const { url, functionName, lineNumber } = node.callFrame;
    if (node.selfSize > 0 && /\/src\/(core|ecs)\//.test(url)) {
      bytes += node.selfSize;
      where.push(`${functionName} ${url.replace(/.*\/src\//, 'src/')}:${lineNumber + 1} ${node.selfSize} B`);
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return { bytes, where };
}

const N = 4000;
const SIDE = 1000;
/** Particles that die and are born again each frame: ids come back at once, last removed first. */
const TURNOVER = 100;

/** A burst of short-lived particles bouncing among walls, as a game's effects churn. */
class Effects {
  readonly world: World;
  private readonly rng = new Rng(31);
  private readonly alive: number[] = [];
  private readonly vx = new Float64Array(4 * N);
  private readonly vy = new Float64Array(4 * N);
  checksum = 0;
  private readonly visit: PairVisitor = (a, b) => {
    this.checksum = (this.checksum + a + b) | 0;
  };

  constructor() {
    // No pair entities: bitECS's addEntity, inlined into the plugin's loop, would be counted as the plugin's.
    this.world = addQuadtree(createWorld(), { width: SIDE, height: SIDE, pairEntities: false });
    for (let i = 0; i < 200; i++) {
      const eid = this.spawnAt(this.rng.next() * SIDE, this.rng.next() * SIDE, 20);
      Collider.layer[eid] = 2;
      Collider.mask[eid] = 1;
    }
    for (let i = 0; i < N; i++) this.alive.push(this.particle());
  }

  private spawnAt(x: number, y: number, size: number): number {
    const eid = addEntity(this.world);
    Position.x[eid] = x;
    Position.y[eid] = y;
    Bounds.width[eid] = size;
    Bounds.height[eid] = size;
    Collider.layer[eid] = 1;
    Collider.mask[eid] = 2;
    addComponent(this.world, eid, Position);
    addComponent(this.world, eid, Bounds);
    addComponent(this.world, eid, Collider);
    return eid;
  }

  private particle(): number {
    // Fractional centres and sizes: numbers that are not small integers, which a call that
    // passes them one by one would box on the heap.
    const eid = this.spawnAt(this.rng.next() * SIDE, this.rng.next() * SIDE, 1.5 + this.rng.next() * 3);
    this.vx[eid] = (this.rng.next() - 0.5) * 5;
    this.vy[eid] = (this.rng.next() - 0.5) * 5;
    return eid;
  }

  frame(): void {
    const { alive, vx, vy, world } = this;
    for (let i = 0; i < TURNOVER; i++) {
      const at = this.rng.int(alive.length);
      removeEntity(world, alive[at]);
      alive[at] = this.particle();
    }
    for (const eid of alive) {
      Position.x[eid] = (Position.x[eid] + vx[eid] + SIDE) % SIDE;
      Position.y[eid] = (Position.y[eid] + vy[eid] + SIDE) % SIDE;
    }
    quadtreeCollisionSystem(quadtreeSyncSystem(world));
    forEachPair(world, this.visit, Phase.All, 100);
  }
}

const game = new Effects();
const tree = getQuadtree(game.world);
let measured: { bytes: number; where: string[] };
if (process.argv[2] === 'control') {
  // The control: a query into a fresh array each time, which grows on the heap from src/core.
  game.frame();
  let found = 0;
  measured = await allocatedBySources(() => {
    for (let k = 0; k < 2000; k++) found += tree.queryRect(0, 0, SIDE, SIDE, []);
  });
  game.checksum = found;
} else {
  for (let k = 0; k < 300; k++) game.frame();
  measured = await allocatedBySources(() => {
    for (let k = 0; k < 1000; k++) game.frame();
  });
}
validateTree(tree);
const stats = getStats(game.world);
console.log(JSON.stringify({ ...measured, entities: stats.entities, pairs: stats.pairs, checksum: game.checksum }));
