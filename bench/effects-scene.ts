import { DEFAULT_SEED, DT, mulberry32, snap, snapSize } from './scene.js';

/** Collision layers of the effects scene, one bit each. */
export const WALL = 1;
export const ACTOR = 2;
export const DUST = 4;

/** Pairs of this priority or more are tier 0: exact every frame, budget or not. */
export const TOP_PRIORITY = 192;

/**
 * Particle effects as a game makes them: explosions burst a few hundred particles each, which
 * fly outward with drag and die after a lifetime; 2,000 actors wander; walls stand still.
 * Sides in px, speeds in px/s, lifetimes in frames.
 */
export const EFFECTS = {
  areaPerParticle: 400,
  walls: { count: 300, layer: WALL, mask: ACTOR | DUST, priority: 255, thick: [8, 16], long: [60, 240] },
  actors: { count: 2000, layer: ACTOR, mask: WALL | ACTOR | DUST, priority: 250, side: [16, 40], speed: [20, 150] },
  dust: {
    layer: DUST,
    mask: WALL | ACTOR,
    priority: 10,
    side: [2, 6],
    speed: [60, 400],
    life: [45, 150],
    burst: [200, 400],
    drag: 0.97,
  },
} as const;

/** Mean particle lifetime in frames: births per frame are the live count over this. */
const MEAN_LIFE = (EFFECTS.dust.life[0] + EFFECTS.dust.life[1]) / 2;

/**
 * The shared, deterministic part of the effects scene: walls, the actors' wandering (stepped
 * here, untimed, the same for every contender) and the script of particle births. Each
 * contender simulates the particles itself, in its own storage (typed arrays, bitECS
 * entities), from this frame's births: age and remove the dead, move the living, add the new.
 * So every contender pays its own births, deaths and moves, and every copy of the scene made
 * from one seed gives every contender the same particles.
 *
 * Every item is a centre and a full size; its box is `x - w * 0.5 .. x + w * 0.5` in every
 * contender, so all of them compare the same numbers. Each item has a uid that is never
 * reused (walls 0.., then actors, then particles in order of birth): pair sets are compared
 * by uid, whatever ids a contender gives its items.
 */
export class EffectsScene {
  /** Live particles the scene keeps alive on average. */
  readonly target: number;
  readonly side: number;
  readonly walls = EFFECTS.walls.count;
  readonly actors = EFFECTS.actors.count;
  /** First actor uid (walls are 0..walls-1). */
  readonly firstActor = EFFECTS.walls.count;
  /** First particle uid. */
  readonly firstDust = EFFECTS.walls.count + EFFECTS.actors.count;
  /** Walls then actors: centre, size. Walls never move. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly w: Float64Array;
  readonly h: Float64Array;
  private readonly heading: Float64Array;
  private readonly speed: Float64Array;

  /** This frame's births (all of them at setup): centre, velocity, size, frames to live, uid. */
  spawnCount = 0;
  spawnX = new Float64Array(1024);
  spawnY = new Float64Array(1024);
  spawnVX = new Float64Array(1024);
  spawnVY = new Float64Array(1024);
  spawnW = new Float64Array(1024);
  spawnH = new Float64Array(1024);
  spawnLife = new Int32Array(1024);
  spawnUid = new Int32Array(1024);

  private readonly rng: () => number;
  private nextUid: number;
  private owed = 0;
  private nextBurst: number;
  /** Frames advanced. */
  frame = 0;

  constructor(target: number, seed = DEFAULT_SEED) {
    const rng = mulberry32(seed);
    this.rng = rng;
    this.target = target;
    this.side = Math.sqrt(target * EFFECTS.areaPerParticle);
    const solids = this.firstDust;
    this.x = new Float64Array(solids);
    this.y = new Float64Array(solids);
    this.w = new Float64Array(solids);
    this.h = new Float64Array(solids);
    this.heading = new Float64Array(solids);
    this.speed = new Float64Array(solids);
    for (let i = 0; i < solids; i++) {
      if (i < this.firstActor) {
        // Even uids lie horizontally, odd ones stand.
        const thick = this.between(EFFECTS.walls.thick);
        const long = this.between(EFFECTS.walls.long);
        this.w[i] = snapSize(i % 2 === 0 ? long : thick);
        this.h[i] = snapSize(i % 2 === 0 ? thick : long);
      } else {
        this.w[i] = snapSize(this.between(EFFECTS.actors.side));
        this.h[i] = snapSize(this.between(EFFECTS.actors.side));
        this.speed[i] = this.between(EFFECTS.actors.speed);
        this.heading[i] = rng() * 2 * Math.PI;
      }
      this.x[i] = snap(this.w[i] * 0.5 + rng() * (this.side - this.w[i]));
      this.y[i] = snap(this.h[i] * 0.5 + rng() * (this.side - this.h[i]));
    }
    this.nextUid = solids;
    this.nextBurst = this.burstSize();
    this.prefill();
  }

  /** Steps the actors and writes this frame's births. Every contender then plays the frame. */
  advance(): void {
    this.frame++;
    this.wander();
    this.spawnCount = 0;
    this.owed += this.target / MEAN_LIFE;
    while (this.owed >= this.nextBurst) {
      this.owed -= this.nextBurst;
      this.burst(this.nextBurst, false);
      this.nextBurst = this.burstSize();
    }
  }

  /** Particles already alive at setup: bursts at every age, so deaths are spread from the first frame. */
  private prefill(): void {
    this.spawnCount = 0;
    while (this.spawnCount < this.target) this.burst(Math.min(this.nextBurst, this.target - this.spawnCount), true);
    this.nextBurst = this.burstSize();
  }

  private burst(count: number, aged: boolean): void {
    const rng = this.rng;
    const { dust } = EFFECTS;
    const cx = rng() * this.side;
    const cy = rng() * this.side;
    // A burst born `age` frames ago: its particles have flown out and slowed down.
    const age = aged ? Math.floor(rng() * dust.life[0]) : 0;
    const decay = dust.drag ** age;
    const flown = ((1 - decay) / (1 - dust.drag)) * DT;
    this.reserve(this.spawnCount + count);
    for (let k = 0; k < count; k++) {
      const i = this.spawnCount++;
      const angle = rng() * 2 * Math.PI;
      const v = this.between(dust.speed);
      const vx = Math.cos(angle) * v;
      const vy = Math.sin(angle) * v;
      this.spawnX[i] = snap(cx + vx * flown);
      this.spawnY[i] = snap(cy + vy * flown);
      this.spawnVX[i] = vx * decay;
      this.spawnVY[i] = vy * decay;
      this.spawnW[i] = snapSize(this.between(dust.side));
      this.spawnH[i] = snapSize(this.between(dust.side));
      this.spawnLife[i] = dust.life[0] + Math.floor(rng() * (dust.life[1] - dust.life[0] + 1)) - age;
      this.spawnUid[i] = this.nextUid++;
    }
  }

  /** Actors turn a little each frame and bounce off the world's edges. */
  private wander(): void {
    const rng = this.rng;
    for (let i = this.firstActor; i < this.firstDust; i++) {
      let a = this.heading[i] + (rng() - 0.5) * 0.3;
      let x = this.x[i] + Math.cos(a) * this.speed[i] * DT;
      let y = this.y[i] + Math.sin(a) * this.speed[i] * DT;
      const hw = this.w[i] * 0.5;
      const hh = this.h[i] * 0.5;
      if (x < hw || x > this.side - hw) {
        a = Math.PI - a;
        x = Math.min(Math.max(x, hw), this.side - hw);
      }
      if (y < hh || y > this.side - hh) {
        a = -a;
        y = Math.min(Math.max(y, hh), this.side - hh);
      }
      this.heading[i] = a;
      this.x[i] = snap(x);
      this.y[i] = snap(y);
    }
  }

  private burstSize(): number {
    const [lo, hi] = EFFECTS.dust.burst;
    return lo + Math.floor(this.rng() * (hi - lo + 1));
  }

  private between(range: readonly [number, number]): number {
    return range[0] + this.rng() * (range[1] - range[0]);
  }

  private reserve(n: number): void {
    if (n <= this.spawnX.length) return;
    const size = Math.max(n, this.spawnX.length * 2);
    const f = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.spawnX = f(this.spawnX);
    this.spawnY = f(this.spawnY);
    this.spawnVX = f(this.spawnVX);
    this.spawnVY = f(this.spawnVY);
    this.spawnW = f(this.spawnW);
    this.spawnH = f(this.spawnH);
    const life = new Int32Array(size);
    life.set(this.spawnLife);
    this.spawnLife = life;
    const uid = new Int32Array(size);
    uid.set(this.spawnUid);
    this.spawnUid = uid;
  }
}

/**
 * Particles in typed arrays, as a hand-written game keeps them: dense, removed by moving the
 * last one into the gap. `step` plays one frame: age and remove the dead, move the living
 * with drag, add the scene's births. `onRemove(slot)` and `onAdd(slot)` let a contender keep
 * its own per-particle data in step (called before the swap and after the add).
 */
export class ParticleArrays {
  count = 0;
  x: Float64Array;
  y: Float64Array;
  vx: Float64Array;
  vy: Float64Array;
  w: Float64Array;
  h: Float64Array;
  life: Int32Array;
  uid: Int32Array;

  constructor(capacity: number) {
    this.x = new Float64Array(capacity);
    this.y = new Float64Array(capacity);
    this.vx = new Float64Array(capacity);
    this.vy = new Float64Array(capacity);
    this.w = new Float64Array(capacity);
    this.h = new Float64Array(capacity);
    this.life = new Int32Array(capacity);
    this.uid = new Int32Array(capacity);
  }

  /** Ages, removes and moves the particles, then adds the scene's births. */
  step(
    scene: EffectsScene,
    onRemove: ((slot: number, last: number) => void) | null,
    onAdd: ((slot: number) => void) | null,
  ): void {
    const drag = EFFECTS.dust.drag;
    const { x, y, vx, vy, life } = this;
    for (let i = 0; i < this.count; i++) {
      if (--life[i] <= 0) {
        const last = this.count - 1;
        if (onRemove !== null) onRemove(i, last);
        this.moveSlot(last, i);
        this.count--;
        i--;
        continue;
      }
      x[i] = snap(x[i] + vx[i] * DT);
      y[i] = snap(y[i] + vy[i] * DT);
      vx[i] *= drag;
      vy[i] *= drag;
    }
    this.add(scene, onAdd);
  }

  /** Adds the scene's births (all the particles at setup). */
  add(scene: EffectsScene, onAdd: ((slot: number) => void) | null): void {
    this.reserve(this.count + scene.spawnCount);
    for (let k = 0; k < scene.spawnCount; k++) {
      const i = this.count++;
      this.x[i] = scene.spawnX[k];
      this.y[i] = scene.spawnY[k];
      this.vx[i] = scene.spawnVX[k];
      this.vy[i] = scene.spawnVY[k];
      this.w[i] = scene.spawnW[k];
      this.h[i] = scene.spawnH[k];
      this.life[i] = scene.spawnLife[k];
      this.uid[i] = scene.spawnUid[k];
      if (onAdd !== null) onAdd(i);
    }
  }

  private moveSlot(from: number, to: number): void {
    this.x[to] = this.x[from];
    this.y[to] = this.y[from];
    this.vx[to] = this.vx[from];
    this.vy[to] = this.vy[from];
    this.w[to] = this.w[from];
    this.h[to] = this.h[from];
    this.life[to] = this.life[from];
    this.uid[to] = this.uid[from];
  }

  private reserve(n: number): void {
    if (n <= this.x.length) return;
    const size = Math.max(n, this.x.length * 2);
    const f = (a: Float64Array) => {
      const b = new Float64Array(size);
      b.set(a);
      return b;
    };
    this.x = f(this.x);
    this.y = f(this.y);
    this.vx = f(this.vx);
    this.vy = f(this.vy);
    this.w = f(this.w);
    this.h = f(this.h);
    const life = new Int32Array(size);
    life.set(this.life);
    this.life = life;
    const uid = new Int32Array(size);
    uid.set(this.uid);
    this.uid = uid;
  }
}

/** The scene's pair rule for two kinds of item (wall 0, actor 1, dust 2), box overlap aside. */
export function kindsPair(a: number, b: number): boolean {
  return !(a === 0 && b === 0) && !(a === 2 && b === 2);
}
