import { advanceBoxes, DEFAULT_SEED, mulberry32, snap, snapSize, type Boxes } from './scene.js';

/** Collision layers of the storm, one bit each. */
export const WALL = 1;
export const ACTOR = 2;
export const DUST = 4;

/**
 * The three kinds of item: count (dust: the scene's N), layer, mask, priority, sides and
 * speeds in px and px/s. Walls are static thin rectangles, `thick` by `long`.
 */
export const STORM = {
  areaPerDust: 400,
  walls: { count: 200, layer: WALL, mask: ACTOR | DUST, priority: 255, thick: [8, 16], long: [60, 240] },
  actors: { count: 2000, layer: ACTOR, mask: WALL | ACTOR | DUST, priority: 200, side: [16, 40], speed: [20, 150] },
  dust: { layer: DUST, mask: WALL | ACTOR, priority: 20, side: [2, 6], speed: [20, 300] },
} as const;

/**
 * A particle-heavy game: N dust particles, 2,000 actors and 200 static walls in a square
 * world of N x 400 px². Ids: walls 0..199, then actors, then dust. Everything but the walls
 * moves every frame, bouncing off the world edges like the bouncing-box scene; movement
 * ignores collisions. A pair is a strict overlap whose two sides accept each other's layer,
 * never between two static items: dust-actor, dust-wall, actor-actor, actor-wall.
 */
export class StormScene implements Boxes {
  /** Dust particles. */
  readonly dust: number;
  /** Items in all: walls, actors, dust. */
  readonly n: number;
  readonly side: number;
  readonly firstActor = STORM.walls.count;
  readonly firstDust = STORM.walls.count + STORM.actors.count;
  readonly minX: Float64Array;
  readonly minY: Float64Array;
  readonly maxX: Float64Array;
  readonly maxY: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  readonly vx: Float64Array;
  readonly vy: Float64Array;
  readonly layer: Int32Array;
  readonly mask: Int32Array;
  readonly priority: Uint8Array;
  readonly isStatic: Uint8Array;
  /** Actors and dust: every id from `firstActor` on. */
  readonly movers: Int32Array;

  constructor(dust: number, seed = DEFAULT_SEED) {
    const rng = mulberry32(seed);
    const n = this.firstDust + dust;
    this.dust = dust;
    this.n = n;
    this.side = Math.sqrt(dust * STORM.areaPerDust);
    this.minX = new Float64Array(n);
    this.minY = new Float64Array(n);
    this.maxX = new Float64Array(n);
    this.maxY = new Float64Array(n);
    this.w = new Float64Array(n);
    this.h = new Float64Array(n);
    this.vx = new Float64Array(n);
    this.vy = new Float64Array(n);
    this.layer = new Int32Array(n);
    this.mask = new Int32Array(n);
    this.priority = new Uint8Array(n);
    this.isStatic = new Uint8Array(n);
    const between = (range: readonly [number, number]) => range[0] + rng() * (range[1] - range[0]);
    for (let i = 0; i < n; i++) {
      const kind = i < this.firstActor ? STORM.walls : i < this.firstDust ? STORM.actors : STORM.dust;
      this.layer[i] = kind.layer;
      this.mask[i] = kind.mask;
      this.priority[i] = kind.priority;
      if (kind === STORM.walls) {
        // Even ids lie horizontally, odd ones stand.
        const thick = between(STORM.walls.thick);
        const long = between(STORM.walls.long);
        this.w[i] = snapSize(i % 2 === 0 ? long : thick);
        this.h[i] = snapSize(i % 2 === 0 ? thick : long);
        this.isStatic[i] = 1;
      } else {
        const { side, speed } = kind as typeof STORM.actors | typeof STORM.dust;
        this.w[i] = snapSize(between(side));
        this.h[i] = snapSize(between(side));
        const v = between(speed);
        const angle = rng() * 2 * Math.PI;
        this.vx[i] = Math.cos(angle) * v;
        this.vy[i] = Math.sin(angle) * v;
      }
      this.minX[i] = snap(rng() * (this.side - this.w[i]));
      this.minY[i] = snap(rng() * (this.side - this.h[i]));
      this.maxX[i] = this.minX[i] + this.w[i];
      this.maxY[i] = this.minY[i] + this.h[i];
    }
    this.movers = new Int32Array(n - this.firstActor);
    for (let k = 0; k < this.movers.length; k++) this.movers[k] = this.firstActor + k;
  }

  /** Moves actors and dust by one time step, bouncing off the world edges. */
  advance(): void {
    advanceBoxes(this);
  }
}

/** The storm's pair rule for items i and j, box overlap aside. */
export function accepts(scene: StormScene, i: number, j: number): boolean {
  return (
    (scene.mask[i] & scene.layer[j]) !== 0 &&
    (scene.mask[j] & scene.layer[i]) !== 0 &&
    (scene.isStatic[i] & scene.isStatic[j]) === 0
  );
}
