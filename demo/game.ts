import { addComponent, addEntity, createWorld, query, removeEntity, type World } from 'bitecs';
import {
  addQuadtree,
  addTileLayer,
  Bounds,
  Circle,
  Collider,
  contact,
  type Contact,
  getQuadtree,
  setStepBudget,
  getStats,
  onCollision,
  Phase,
  Position,
  pushOut,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  queryNearest,
  queryRect,
  removeQuadtree,
  setDispatchBudget,
  Static,
  Swept,
} from '../src/index.js';
import { createRng } from './rng.js';

/** The arena, in world pixels. */
export const WORLD_W = 3200;
export const WORLD_H = 2000;
/** The walls' tiles, in world pixels. */
const TILE = 16;
/** The tree's depth: leaf cells of 25 px in this arena, a little more than an enemy. */
export const MAX_DEPTH = 7;

/** Collision layers (one bit each). Particles only collide with walls and rocks. */
export const Layer = { Wall: 1, Player: 2, Enemy: 4, Bullet: 8, Particle: 16 } as const;

/** What an entity is, for drawing and for the handlers. */
export const Kind = { Player: 1, Enemy: 2, Bullet: 3, Spark: 4, Smoke: 5, Dust: 6, Wall: 7, Rock: 8 } as const;
export type KindValue = (typeof Kind)[keyof typeof Kind];

// Priorities: a pair has the lower of its two, so bullets, enemies and the player pair in
// tier 0 (192-255, never cut by the budget); sparks in tier 2; smoke and dust in tier 3.
const PRIORITY = { wall: 255, bullet: 255, player: 250, enemy: 200, spark: 100, smoke: 40, dust: 20 };

export const Velocity = { x: [] as number[], y: [] as number[] };
/** Seconds left and seconds at birth, for entities that expire. */
export const Life = { left: [] as number[], total: [] as number[] };
export const Kinds = { value: [] as number[] };
/** Swarm colour of an enemy, and the tint of a particle. */
export const Tint = { value: [] as number[] };
/** Entities moved by velocity each frame. */
export const Mover = {};
export const Enemy = {};
export const Mortal = {};
// Query terms made once: bitECS's query() takes an array, and the systems run every frame.
const ENEMIES = [Enemy];
const MOVERS = [Mover];
const MORTALS = [Mortal];

/** Calls out to the renderer when entities come and go. */
export interface GameHooks {
  spawned(eid: number, kind: KindValue): void;
  removed(eid: number, kind: KindValue): void;
}

/** The player's intent for one frame, in world coordinates. */
export interface Controls {
  moveX: number;
  moveY: number;
  aimX: number;
  aimY: number;
  fire: boolean;
}

/** Milliseconds spent in each system in the last frame. */
export interface SystemTimes {
  control: number;
  move: number;
  sync: number;
  collision: number;
  dispatch: number;
  cleanup: number;
}

const BUDGET_PAIR_TESTS = 50_000;
const BUDGET_HANDLER_CALLS = 2000;
/** 25 px a frame at 60 FPS: more than an enemy and a bullet across, so an unswept bullet could skip one. */
const BULLET_SPEED = 1500;
const FIRE_INTERVAL = 0.075;
const PLAYER_SPEED = 330;
const ENEMY_SIZE = 18;
const BULLET_SIZE = 5;

/**
 * The shooter's rules on a bitECS world with the quadtree plugin: a player, enemy swarms
 * that chase it, bullets, sparks, smoke and dust that bounce off walls and rocks.
 */
export class Game {
  readonly world: World;
  readonly player: number;
  readonly times: SystemTimes = { control: 0, move: 0, sync: 0, collision: 0, dispatch: 0, cleanup: 0 };
  budget = false;
  score = 0;
  hits = 0;
  entities = 0;
  pairsEntered = 0;
  /**
   * Bullet hits that a test of where the bullet ends up would have missed: the bullet had
   * passed through (its end box clear of the target) when the step found the hit on its path.
   */
  sweptSaves = 0;
  time = 0;

  /** Effect particles to keep alive (see {@link effects}), and those alive. */
  private effectsTarget = 0;
  effectsLive = 0;
  private readonly rng: () => number;
  private readonly dead: number[] = [];
  private readonly isDead: number[] = [];
  /** 1 for a spark born by {@link effects}. */
  private readonly isEffect: number[] = [];
  private readonly enemyTarget: number;
  private enemies = 0;
  private fireCooldown = 0;
  private swarmTimer = 0;
  private readonly near: number[] = [];
  private readonly point = { x: 0, y: 0 };
  private readonly patrol = { x: 0, y: 0 };
  /** The contact of the pair a handler is serving (reused). */
  private readonly touch: Contact = { nx: 0, ny: 0, depth: 0, x: 0, y: 0 };
  private readonly found: number[] = [];

  constructor(
    population: number,
    private readonly hooks: GameHooks,
    seed = 1,
  ) {
    this.rng = createRng(seed);
    this.world = createWorld();
    addQuadtree(this.world, { width: WORLD_W, height: WORLD_H, maxDepth: MAX_DEPTH, pairEntities: false });
    this.registerHandlers();
    this.buildArena();
    this.player = this.spawn(
      Kind.Player,
      WORLD_W / 2,
      WORLD_H / 2,
      26,
      26,
      Layer.Player,
      Layer.Wall | Layer.Enemy,
      PRIORITY.player,
    );
    this.enemyTarget = Math.round(Math.min(1500, Math.max(60, population * 0.05)));
    for (let i = 0; this.enemies < this.enemyTarget / 2 && i < 100; i++) this.spawnSwarm();
    this.spawnClouds(Math.max(0, population - this.entities));
  }

  /** Advances the game by `dt` seconds. */
  step(dt: number, controls: Controls): void {
    const world = this.world;
    let t = performance.now();
    this.time += dt;
    this.control(dt, controls);
    this.steerEnemies(dt);
    this.swarms(dt);
    this.keepEffects();
    let now = performance.now();
    this.times.control = now - t;
    t = now;
    this.move(dt);
    now = performance.now();
    this.times.move = now - t;
    quadtreeSyncSystem(world);
    quadtreeCollisionSystem(world);
    quadtreeDispatchSystem(world);
    const stats = getStats(world);
    this.times.sync = stats.syncMs;
    this.times.collision = stats.collisionMs;
    this.times.dispatch = stats.dispatchMs;
    this.pairsEntered += stats.entered;
    t = performance.now();
    this.cleanup();
    this.times.cleanup = performance.now() - t;
  }

  /**
   * Turns the budgets on or off: with them, particle pairs (tiers 2 and 3) wait for a later
   * frame when the frame is busy, while bullet, enemy and player pairs stay exact.
   */
  setBudget(on: boolean): void {
    this.budget = on;
    setStepBudget(this.world, on ? { maxPairTests: BUDGET_PAIR_TESTS } : {});
    setDispatchBudget(this.world, on ? { maxCalls: BUDGET_HANDLER_CALLS } : {});
  }

  /** Sprays `count` dust particles from the player, in every direction. */
  burst(count: number): void {
    const px = Position.x[this.player];
    const py = Position.y[this.player];
    for (let i = 0; i < count; i++) {
      const a = (i / count) * Math.PI * 2 + this.rng() * 0.01;
      this.spawnDust(px, py, Math.cos(a), Math.sin(a), 120 + this.rng() * 380);
    }
  }

  /**
   * A particle storm: `count` dust grains spread over the whole arena, each drifting its own
   * way and bouncing off walls and rocks. Dust pairs only with walls and rocks, never with
   * other dust, so the plugin joins it from the small side (see docs/how-it-works.md).
   */
  storm(count: number): void {
    const rng = this.rng;
    for (let placed = 0, tries = 0; placed < count && tries < count * 4; tries++) {
      const x = 40 + rng() * (WORLD_W - 80);
      const y = 40 + rng() * (WORLD_H - 80);
      if (this.blocked(x - 3, y - 3, x + 3, y + 3)) continue;
      const a = rng() * Math.PI * 2;
      this.spawnDust(x, y, Math.cos(a), Math.sin(a), 20 + rng() * 120);
      placed++;
    }
  }

  /**
   * Keeps about `count` effect particles alive, as explosions make them: bursts of a few hundred
   * sparks at random open spots, flying out with drag, each living 0.75 to 2.5 s; bitECS hands
   * the ids of the dead to the newborn at once. Sparks are tier 2: with the budget on they are
   * checked in shares while bullets, enemies and the player stay exact.
   */
  effects(count: number): void {
    this.effectsTarget = count;
  }

  private keepEffects(): void {
    const rng = this.rng;
    while (this.effectsLive < this.effectsTarget) {
      const [cx, cy] = this.openSpot();
      const size = Math.min(this.effectsTarget - this.effectsLive, 200 + Math.floor(rng() * 200));
      const tint = rng() < 0.5 ? 0xffcc55 : 0xff7a3d;
      for (let i = 0; i < size; i++) {
        const a = rng() * Math.PI * 2;
        const v = 60 + rng() * 340;
        const e = this.spawn(
          Kind.Spark,
          cx,
          cy,
          3 + rng() * 3,
          3 + rng() * 3,
          Layer.Particle,
          Layer.Wall,
          PRIORITY.spark,
          tint,
        );
        Velocity.x[e] = Math.cos(a) * v;
        Velocity.y[e] = Math.sin(a) * v;
        this.mortal(e, 0.75 + rng() * 1.75);
        this.isEffect[e] = 1;
      }
      this.effectsLive += size;
    }
  }

  /** Removes everything and detaches the plugin. */
  dispose(): void {
    removeQuadtree(this.world);
  }

  /** An entity's position (the centre of its box). */
  positionOf(e: number): { x: number; y: number } {
    this.point.x = Position.x[e];
    this.point.y = Position.y[e];
    return this.point;
  }

  /** Where the autopilot flies at time `t`: a slow loop through the open middle of the arena (a reused object). */
  patrolPoint(t: number): { x: number; y: number } {
    this.patrol.x = WORLD_W / 2 + Math.sin(t * 0.35) * 330;
    this.patrol.y = WORLD_H / 2 + Math.sin(t * 0.61) * 200;
    return this.patrol;
  }

  /** The nearest enemy within `range` of a point, or 0. */
  nearestEnemy(x: number, y: number, range: number): number {
    const n = queryNearest(this.world, x, y, 1, range, this.near, null, Layer.Enemy);
    return n > 0 ? this.near[0] : 0;
  }

  private control(dt: number, c: Controls): void {
    const p = this.player;
    const len = Math.hypot(c.moveX, c.moveY);
    const target = len > 0 ? PLAYER_SPEED / len : 0;
    const k = Math.min(1, dt * 12);
    Velocity.x[p] += (c.moveX * target - Velocity.x[p]) * k;
    Velocity.y[p] += (c.moveY * target - Velocity.y[p]) * k;
    this.fireCooldown -= dt;
    if (!c.fire) {
      this.fireCooldown = Math.max(0, this.fireCooldown);
      return;
    }
    while (this.fireCooldown <= 0) {
      this.fireCooldown += FIRE_INTERVAL;
      const a = Math.atan2(c.aimY - Position.y[p], c.aimX - Position.x[p]) + (this.rng() - 0.5) * 0.06;
      const dx = Math.cos(a);
      const dy = Math.sin(a);
      const b = this.spawn(
        Kind.Bullet,
        Position.x[p] + dx * 18,
        Position.y[p] + dy * 18,
        BULLET_SIZE,
        BULLET_SIZE,
        Layer.Bullet,
        Layer.Wall | Layer.Enemy,
        PRIORITY.bullet,
        0xfff2a8,
      );
      // Swept: found along its whole path each frame, so it cannot jump over an enemy or a wall.
      addComponent(this.world, b, Swept);
      Velocity.x[b] = dx * BULLET_SPEED;
      Velocity.y[b] = dy * BULLET_SPEED;
      this.mortal(b, 1.1);
    }
  }

  private steerEnemies(dt: number): void {
    const px = Position.x[this.player];
    const py = Position.y[this.player];
    const k = Math.min(1, dt * 2.5);
    const time = this.time;
    for (const e of query(this.world, ENEMIES)) {
      const dx = px - Position.x[e];
      const dy = py - Position.y[e];
      const d = Math.hypot(dx, dy) || 1;
      // Each enemy weaves a little on its own phase, so swarms spread instead of queueing.
      const phase = (e * 0.6180339) % 1;
      const weave = Math.sin(time * 3 + phase * 20) * 0.45;
      const speed = 85 + phase * 55;
      const tx = ((dx - dy * weave) / d) * speed;
      const ty = ((dy + dx * weave) / d) * speed;
      Velocity.x[e] += (tx - Velocity.x[e]) * k;
      Velocity.y[e] += (ty - Velocity.y[e]) * k;
    }
  }

  private swarms(dt: number): void {
    this.swarmTimer -= dt;
    if (this.swarmTimer > 0 || this.enemies >= this.enemyTarget) return;
    this.swarmTimer = 1.2 + this.rng() * 1.5;
    this.spawnSwarm();
  }

  private move(dt: number): void {
    const vx = Velocity.x;
    const vy = Velocity.y;
    const px = Position.x;
    const py = Position.y;
    for (const e of query(this.world, MOVERS)) {
      const kind = Kinds.value[e];
      if (kind === Kind.Bullet) {
        // Bullets are Swept: the tree tests the path from last frame's box to this one.
        px[e] += vx[e] * dt;
        py[e] += vy[e] * dt;
        Life.left[e] -= dt;
        if (Life.left[e] <= 0) this.kill(e);
        continue;
      }
      if (kind === Kind.Spark) {
        const drag = Math.exp(-2.5 * dt);
        vx[e] *= drag;
        vy[e] *= drag;
      }
      px[e] += vx[e] * dt;
      py[e] += vy[e] * dt;
      // Nothing leaves the arena, even a particle whose wall bounce was deferred.
      const hw = Bounds.width[e] / 2;
      const hh = Bounds.height[e] / 2;
      if (px[e] < hw || px[e] > WORLD_W - hw) {
        px[e] = Math.min(WORLD_W - hw, Math.max(hw, px[e]));
        vx[e] = px[e] === hw ? Math.abs(vx[e]) : -Math.abs(vx[e]);
      }
      if (py[e] < hh || py[e] > WORLD_H - hh) {
        py[e] = Math.min(WORLD_H - hh, Math.max(hh, py[e]));
        vy[e] = py[e] === hh ? Math.abs(vy[e]) : -Math.abs(vy[e]);
      }
    }
    for (const e of query(this.world, MORTALS)) {
      if (Kinds.value[e] === Kind.Bullet) continue;
      Life.left[e] -= dt;
      if (Life.left[e] <= 0) this.kill(e);
    }
  }

  private cleanup(): void {
    const dead = this.dead;
    for (let i = 0; i < dead.length; i++) {
      const e = dead[i];
      const kind = Kinds.value[e] as KindValue;
      if (kind === Kind.Enemy) this.enemies--;
      if (this.isEffect[e] === 1) {
        this.isEffect[e] = 0;
        this.effectsLive--;
      }
      this.hooks.removed(e, kind);
      this.isDead[e] = 0;
      removeEntity(this.world, e);
      this.entities--;
    }
    dead.length = 0;
  }

  /**
   * Where a bullet first touched `other` this frame (the contact point at its time of impact,
   * a reused object), counting the hit in {@link sweptSaves} when the bullet had already
   * passed through (the two no longer overlap).
   */
  private bulletHit(bullet: number, other: number): { x: number; y: number } {
    const c = contact(this.world, bullet, other, this.touch);
    if (c.depth === 0 && getQuadtree(this.world).timeOfImpact(bullet, other) > 0) this.sweptSaves++;
    this.point.x = c.x;
    this.point.y = c.y;
    return this.point;
  }

  private kill(e: number): void {
    if (this.isDead[e] === 1) return;
    this.isDead[e] = 1;
    this.dead.push(e);
  }

  private registerHandlers(): void {
    const world = this.world;
    onCollision(
      world,
      (bullet, enemy) => {
        if (this.isDead[bullet] === 1 || this.isDead[enemy] === 1) return;
        this.bulletHit(bullet, enemy);
        this.kill(bullet);
        this.kill(enemy);
        this.score++;
        this.explode(Position.x[enemy], Position.y[enemy], Tint.value[enemy], 12, 5);
      },
      { layer: Layer.Bullet, other: Layer.Enemy, priority: 255, phases: Phase.Enter },
    );

    onCollision(
      world,
      (bullet, wall) => {
        if (this.isDead[bullet] === 1) return;
        const at = this.bulletHit(bullet, wall);
        this.kill(bullet);
        this.explode(at.x, at.y, 0xffdd66, 3, 0);
      },
      { layer: Layer.Bullet, other: Layer.Wall, priority: 250, phases: Phase.Enter },
    );

    onCollision(
      world,
      (enemy) => {
        if (this.isDead[enemy] === 1) return;
        this.kill(enemy);
        this.hits++;
        this.explode(Position.x[enemy], Position.y[enemy], 0xff5533, 16, 6);
      },
      { layer: Layer.Enemy, other: Layer.Player, priority: 240, phases: Phase.Enter },
    );

    onCollision(world, (self, wall) => pushOut(world, self, wall, Velocity), {
      layer: Layer.Player | Layer.Enemy,
      other: Layer.Wall,
      priority: 230,
      phases: Phase.Enter | Phase.Stay,
    });

    // A quarter of the depth each, so that a swarm packs instead of stacking.
    onCollision(
      world,
      (a, b) => {
        pushOut(world, a, b, null, 0, 0.25);
        pushOut(world, b, a, null, 0, 0.25);
      },
      {
        layer: Layer.Enemy,
        other: Layer.Enemy,
        priority: 200,
        phases: Phase.Enter | Phase.Stay,
      },
    );

    onCollision(world, (particle, wall) => pushOut(world, particle, wall, Velocity, 0.85), {
      layer: Layer.Particle,
      other: Layer.Wall,
      priority: 60,
      phases: Phase.Enter | Phase.Stay,
    });
  }

  private explode(x: number, y: number, tint: number, sparks: number, smoke: number): void {
    const rng = this.rng;
    for (let i = 0; i < sparks; i++) {
      const a = rng() * Math.PI * 2;
      const v = 120 + rng() * 380;
      const e = this.spawn(
        Kind.Spark,
        x,
        y,
        5,
        5,
        Layer.Particle,
        Layer.Wall,
        PRIORITY.spark,
        rng() < 0.5 ? 0xffcc55 : tint,
      );
      Velocity.x[e] = Math.cos(a) * v;
      Velocity.y[e] = Math.sin(a) * v;
      this.mortal(e, 0.45 + rng() * 0.6);
    }
    for (let i = 0; i < smoke; i++) {
      const a = rng() * Math.PI * 2;
      const v = 15 + rng() * 50;
      const e = this.spawn(Kind.Smoke, x, y, 12, 12, Layer.Particle, Layer.Wall, PRIORITY.smoke, 0x8890a0);
      Velocity.x[e] = Math.cos(a) * v;
      Velocity.y[e] = Math.sin(a) * v;
      this.mortal(e, 1.2 + rng() * 1.4);
    }
  }

  /**
   * Spreads dust in drifting clouds rather than evenly, so the tree has dense and empty
   * regions to show; each grain has its cloud's drift plus a little of its own.
   */
  private spawnClouds(count: number): void {
    const rng = this.rng;
    while (count > 0) {
      const size = Math.min(count, 150 + Math.floor(rng() * 450));
      const [cx, cy] = this.openSpot();
      const radius = 40 + Math.sqrt(size) * 6;
      const drift = rng() * Math.PI * 2;
      const speed = 12 + rng() * 30;
      for (let placed = 0, tries = 0; placed < size && tries < size * 4; tries++) {
        const a = rng() * Math.PI * 2;
        const r = Math.sqrt(rng()) * radius;
        const x = Math.min(WORLD_W - 60, Math.max(60, cx + Math.cos(a) * r));
        const y = Math.min(WORLD_H - 60, Math.max(60, cy + Math.sin(a) * r));
        if (this.blocked(x - 3, y - 3, x + 3, y + 3)) continue;
        const j = rng() * Math.PI * 2;
        const jitter = rng() * 10;
        const vx = Math.cos(drift) * speed + Math.cos(j) * jitter;
        const vy = Math.sin(drift) * speed + Math.sin(j) * jitter;
        const v = Math.hypot(vx, vy) || 1;
        this.spawnDust(x, y, vx / v, vy / v, v);
        placed++;
        count--;
      }
    }
  }

  private spawnDust(x: number, y: number, dx: number, dy: number, speed: number): void {
    const r = this.rng();
    const tint = r < 0.6 ? 0x2f8fff : r < 0.9 ? 0x22d3c5 : 0x9a6bff;
    const e = this.spawn(Kind.Dust, x, y, 5, 5, Layer.Particle, Layer.Wall, PRIORITY.dust, tint);
    Velocity.x[e] = dx * speed;
    Velocity.y[e] = dy * speed;
  }

  private spawnSwarm(): void {
    const rng = this.rng;
    // Swarms gather near a random spot along the arena's edge and come for the player.
    const side = Math.floor(rng() * 4);
    const u = 0.1 + rng() * 0.8;
    const cx = side === 0 ? 160 : side === 1 ? WORLD_W - 160 : u * WORLD_W;
    const cy = side === 2 ? 160 : side === 3 ? WORLD_H - 160 : u * WORLD_H;
    const hues = [0xff3b6b, 0xff6a3d, 0xd94dff, 0xff2f2f, 0xffb02e];
    const tint = hues[Math.floor(rng() * hues.length)];
    const count = 20 + Math.floor(rng() * 25);
    for (let i = 0; i < count && this.enemies < this.enemyTarget; i++) {
      const a = rng() * Math.PI * 2;
      const r = Math.sqrt(rng()) * 110;
      const e = this.spawn(
        Kind.Enemy,
        cx + Math.cos(a) * r,
        cy + Math.sin(a) * r,
        ENEMY_SIZE,
        ENEMY_SIZE,
        Layer.Enemy,
        Layer.Wall | Layer.Player | Layer.Bullet | Layer.Enemy,
        PRIORITY.enemy,
        tint,
      );
      addComponent(this.world, e, Enemy);
      this.enemies++;
    }
  }

  /** Takes an entity made elsewhere (a wall of the tile layer) into the game and the view. */
  private adopt(e: number, kind: KindValue): void {
    Tint.value[e] = 0xffffff;
    Life.total[e] = 0;
    Kinds.value[e] = kind;
    Velocity.x[e] = 0;
    Velocity.y[e] = 0;
    this.entities++;
    this.hooks.spawned(e, kind);
  }

  private spawn(
    kind: KindValue,
    x: number,
    y: number,
    w: number,
    h: number,
    layer: number,
    mask: number,
    priority: number,
    tint = 0xffffff,
  ): number {
    const world = this.world;
    const e = addEntity(world);
    Tint.value[e] = tint;
    Life.total[e] = 0;
    Position.x[e] = x;
    Position.y[e] = y;
    Bounds.width[e] = w;
    Bounds.height[e] = h;
    Collider.layer[e] = layer;
    Collider.mask[e] = mask;
    Collider.priority[e] = priority;
    Kinds.value[e] = kind;
    Velocity.x[e] = 0;
    Velocity.y[e] = 0;
    addComponent(world, e, Position);
    addComponent(world, e, Bounds);
    addComponent(world, e, Collider);
    if (kind === Kind.Wall || kind === Kind.Rock) addComponent(world, e, Static);
    else addComponent(world, e, Mover);
    // Ships, drones and rocks are round: their pairs and bounces follow the circle, not its box.
    if (kind === Kind.Player || kind === Kind.Enemy || kind === Kind.Rock) addComponent(world, e, Circle);
    this.entities++;
    this.hooks.spawned(e, kind);
    return e;
  }

  private mortal(e: number, seconds: number): void {
    Life.left[e] = seconds;
    Life.total[e] = seconds;
    addComponent(this.world, e, Mortal);
  }

  private wall(kind: KindValue, x: number, y: number, w: number, h: number): void {
    this.spawn(kind, x + w / 2, y + h / 2, w, h, Layer.Wall, -1, PRIORITY.wall);
    // Into the tree at once, so that the placing of what comes next can query it.
    quadtreeSyncSystem(this.world);
  }

  private buildArena(): void {
    // The walls are a grid of 16 px tiles, as a tile editor would draw them; the tile layer
    // merges each wall into one static entity.
    const cols = WORLD_W / TILE,
      rows = WORLD_H / TILE;
    const tiles = new Array<number>(cols * rows).fill(0);
    const fill = (x: number, y: number, w: number, h: number) => {
      for (let r = Math.round(y / TILE); r < Math.round((y + h) / TILE); r++)
        for (let c = Math.round(x / TILE); c < Math.round((x + w) / TILE); c++) tiles[r * cols + c] = 1;
    };
    const t = 48;
    fill(0, 0, WORLD_W, t);
    fill(0, WORLD_H - t, WORLD_W, t);
    fill(0, t, t, WORLD_H - 2 * t);
    fill(WORLD_W - t, t, t, WORLD_H - 2 * t);
    // Inner walls: four L-shaped bunkers around the centre and two long bars.
    const cx = WORLD_W / 2;
    const cy = WORLD_H / 2;
    for (const [sx, sy] of [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ]) {
      const x = cx + sx * 520;
      const y = cy + sy * 330;
      fill(sx < 0 ? x - 260 : x, y - 16, 260, 32);
      fill(x - 16, sy < 0 ? y - 200 : y, 32, 200);
    }
    fill(420, cy - 16, 380, 32);
    fill(WORLD_W - 800, cy - 16, 380, 32);
    const walls = addTileLayer(this.world, {
      data: tiles,
      width: cols,
      tileWidth: TILE,
      tileHeight: TILE,
      layer: Layer.Wall,
      priority: PRIORITY.wall,
    });
    walls.visitRects((e) => this.adopt(e, Kind.Wall));
    // Into the tree at once, so that the placing of the rocks can query it.
    quadtreeSyncSystem(this.world);
    // Rocks away from the centre, where the player starts.
    const rng = this.rng;
    let placed = 0;
    for (let tries = 0; placed < 26 && tries < 500; tries++) {
      const s = 36 + rng() * 60;
      const x = 120 + rng() * (WORLD_W - 240 - s);
      const y = 120 + rng() * (WORLD_H - 240 - s);
      if (Math.hypot(x + s / 2 - cx, (y + s / 2 - cy) * 1.4) < 460) continue;
      if (this.blocked(x - 30, y - 30, x + s + 30, y + s + 30)) continue;
      this.wall(Kind.Rock, x, y, s, s);
      placed++;
    }
  }

  /** Whether a wall or a rock overlaps the rectangle. */
  private blocked(minX: number, minY: number, maxX: number, maxY: number): boolean {
    return queryRect(this.world, minX, minY, maxX, maxY, this.found, Layer.Wall) > 0;
  }

  /** A random point not inside a wall or rock. */
  private openSpot(): [number, number] {
    for (;;) {
      const x = 60 + this.rng() * (WORLD_W - 120);
      const y = 60 + this.rng() * (WORLD_H - 120);
      if (!this.blocked(x - 4, y - 4, x + 4, y + 4)) return [x, y];
    }
  }
}
