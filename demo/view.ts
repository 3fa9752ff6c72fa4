import { Container, Graphics, Particle, ParticleContainer, type Renderer, type Texture } from 'pixi.js';
import { Bounds, getQuadtree, Position, type LooseQuadtree } from '../src/index.js';
import { ParticleCuller, QuadtreeOverlay } from '../src/pixi/index.js';
import {
  Kind,
  Kinds,
  type KindValue,
  Layer,
  Life,
  MAX_DEPTH,
  Tint,
  Velocity,
  WORLD_H,
  WORLD_W,
  type Game,
} from './game.js';

/** Sprites get this much room around their boxes when culled (glows are larger than boxes). */
const CULL_MARGIN = 24;

/**
 * The PixiJS side of the demo: one `ParticleContainer` per kind of moving thing, each culled
 * to the screen through the quadtree, walls drawn once, and the tree overlay on top.
 */
export class View {
  /** The camera: everything in world coordinates moves with it. */
  readonly root = new Container();
  readonly overlay: QuadtreeOverlay;
  camX = 0;
  camY = 0;
  /** Sprites on screen after the last render. */
  onScreen = 0;

  private readonly arena = new Graphics();
  private readonly walls = new Graphics();
  private readonly particles: ParticleContainer<Particle>;
  private readonly enemies: ParticleContainer<Particle>;
  private readonly bullets: ParticleContainer<Particle>;
  private readonly particleCuller: ParticleCuller<Particle>;
  private readonly enemyCuller: ParticleCuller<Particle>;
  private readonly bulletCuller: ParticleCuller<Particle>;
  private readonly ship = new Container();
  private readonly textures: { dot: Texture; enemy: Texture; bullet: Texture };
  private readonly pools: (Particle[] | undefined)[] = [];
  private game: Game | null = null;

  constructor(renderer: Renderer) {
    this.textures = makeTextures(renderer);
    const { dot, enemy, bullet } = this.textures;
    this.particles = new ParticleContainer<Particle>({
      texture: dot,
      blendMode: 'add',
      dynamicProperties: { position: true, color: true, vertex: true, rotation: false },
    });
    this.enemies = new ParticleContainer<Particle>({
      texture: enemy,
      dynamicProperties: { position: true, rotation: true },
    });
    this.bullets = new ParticleContainer<Particle>({
      texture: bullet,
      blendMode: 'add',
      dynamicProperties: { position: true, rotation: true },
    });
    this.particleCuller = new ParticleCuller(this.particles, { mask: Layer.Particle, margin: CULL_MARGIN });
    this.enemyCuller = new ParticleCuller(this.enemies, { mask: Layer.Enemy, margin: CULL_MARGIN });
    this.bulletCuller = new ParticleCuller(this.bullets, { mask: Layer.Bullet, margin: CULL_MARGIN });
    this.overlay = new QuadtreeOverlay(new Graphics(), {
      maxDepth: MAX_DEPTH,
      bounds: 'cell',
      pairs: true,
      paths: true,
      alpha: 0.4,
    });
    this.ship.addChild(shipGraphics());
    this.ship.scale.set(1.25);
    drawArena(this.arena);
    this.root.addChild(
      this.arena,
      this.walls,
      this.particles,
      this.enemies,
      this.bullets,
      this.ship,
      this.overlay.graphics,
    );
  }

  /** Forgets every sprite and wall of the game shown so far: call before creating the next one. */
  reset(): void {
    this.game = null;
    this.particleCuller.clear();
    this.enemyCuller.clear();
    this.bulletCuller.clear();
    this.walls.clear();
  }

  /** Shows a game, whose entities were announced through {@link spawned}. */
  attach(game: Game): void {
    this.game = game;
  }

  /** The game created an entity. */
  spawned(eid: number, kind: KindValue): void {
    switch (kind) {
      case Kind.Wall:
      case Kind.Rock:
        drawWall(this.walls, kind, Position.x[eid], Position.y[eid], Bounds.width[eid], Bounds.height[eid]);
        return;
      case Kind.Player:
        return;
      case Kind.Enemy:
        this.enemyCuller.set(eid, this.take(eid, kind, this.textures.enemy));
        return;
      case Kind.Bullet:
        this.bulletCuller.set(eid, this.take(eid, kind, this.textures.bullet));
        return;
      default:
        this.particleCuller.set(eid, this.take(eid, kind, this.textures.dot));
    }
  }

  /** The game removed an entity: its sprite goes back to the pool. */
  removed(eid: number, kind: KindValue): void {
    const culler =
      kind === Kind.Enemy ? this.enemyCuller : kind === Kind.Bullet ? this.bulletCuller : this.particleCuller;
    const sprite = culler.get(eid);
    if (sprite === undefined) return;
    culler.delete(eid);
    (this.pools[kind] ??= []).push(sprite);
  }

  /** Moves the camera to the player, culls every layer to the screen and updates what shows. */
  render(width: number, height: number, showOverlay: boolean, aimX: number, aimY: number): void {
    const game = this.game;
    if (game === null) return;
    const p = game.player;
    this.camX = clampCamera(Position.x[p] - width / 2, WORLD_W, width);
    this.camY = clampCamera(Position.y[p] - height / 2, WORLD_H, height);
    this.root.position.set(-Math.round(this.camX), -Math.round(this.camY));
    const minX = this.camX;
    const minY = this.camY;
    const maxX = minX + width;
    const maxY = minY + height;
    const tree = getQuadtree(game.world);

    const n = this.particleCuller.cull(tree, minX, minY, maxX, maxY);
    const ids = this.particleCuller.visibleIds;
    const sprites = this.particles.particleChildren;
    for (let i = 0; i < n; i++) {
      const e = ids[i];
      const s = sprites[i];
      s.x = Position.x[e];
      s.y = Position.y[e];
      const kind = Kinds.value[e];
      if (kind === Kind.Dust) continue;
      const f = Math.max(0, Life.left[e] / Life.total[e]);
      if (kind === Kind.Smoke) {
        // Smoke grows and fades; sparks fade.
        const k = 1.6 + (1 - f) * 2.2;
        s.scaleX = k;
        s.scaleY = k;
        s.alpha = 0.22 * f;
      } else {
        s.alpha = f;
      }
    }
    this.onScreen = n;

    this.onScreen += this.placeHeaded(this.enemyCuller, this.enemies, tree, minX, minY, maxX, maxY);
    this.onScreen += this.placeHeaded(this.bulletCuller, this.bullets, tree, minX, minY, maxX, maxY);

    this.ship.position.set(Position.x[p], Position.y[p]);
    this.ship.rotation = Math.atan2(aimY - Position.y[p], aimX - Position.x[p]);

    this.overlay.graphics.visible = showOverlay;
    if (showOverlay) this.overlay.draw(tree, minX, minY, maxX, maxY);
  }

  /** A sprite for a new entity, from the pool when one is free, dressed for its kind. */
  /** Culls one container and places its visible sprites, turned along their velocity. */
  private placeHeaded(
    culler: ParticleCuller<Particle>,
    container: ParticleContainer<Particle>,
    tree: LooseQuadtree,
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
  ): number {
    const n = culler.cull(tree, minX, minY, maxX, maxY);
    const ids = culler.visibleIds;
    const sprites = container.particleChildren;
    for (let i = 0; i < n; i++) {
      const e = ids[i];
      const s = sprites[i];
      s.x = Position.x[e];
      s.y = Position.y[e];
      s.rotation = Math.atan2(Velocity.y[e], Velocity.x[e]);
    }
    return n;
  }

  private take(eid: number, kind: KindValue, texture: Texture): Particle {
    const pool = this.pools[kind];
    const s = pool?.pop() ?? new Particle({ texture, anchorX: 0.5, anchorY: 0.5 });
    const scale = kind === Kind.Spark ? 0.75 : kind === Kind.Smoke ? 1.6 : kind === Kind.Dust ? 0.55 : 1;
    s.scaleX = scale;
    s.scaleY = scale;
    s.rotation = 0;
    s.alpha = kind === Kind.Smoke ? 0.22 : kind === Kind.Dust ? 0.9 : 1;
    s.tint = Tint.value[eid];
    return s;
  }
}

function clampCamera(pos: number, world: number, screen: number): number {
  if (screen >= world) return (world - screen) / 2;
  return Math.min(world - screen, Math.max(0, pos));
}

/** The floor grid. The floor colour itself is the renderer's background (one full-screen fill less). */
function drawArena(g: Graphics): void {
  for (let x = 0; x <= WORLD_W; x += 80) g.moveTo(x, 0).lineTo(x, WORLD_H);
  for (let y = 0; y <= WORLD_H; y += 80) g.moveTo(0, y).lineTo(WORLD_W, y);
  g.stroke({ width: 1, color: 0x16202e, pixelLine: true });
}

function drawWall(g: Graphics, kind: KindValue, x: number, y: number, w: number, h: number): void {
  const left = x - w / 2;
  const top = y - h / 2;
  if (kind === Kind.Rock) {
    // A rock is the circle in its square box (it is a Circle in the tree).
    const r = w / 2;
    g.circle(x, y, r).fill(0x262b36).stroke({ width: 2, color: 0x5b6578 });
    g.circle(x - r * 0.3, y - r * 0.3, r * 0.3).fill({ color: 0xffffff, alpha: 0.06 });
  } else {
    g.rect(left, top, w, h).fill(0x17263a).stroke({ width: 2, color: 0x3f6f9f });
  }
}

function shipGraphics(): Graphics {
  const g = new Graphics();
  g.circle(0, 0, 22).fill({ color: 0x4de3ff, alpha: 0.08 });
  g.poly([18, 0, -12, -12, -6, 0, -12, 12]).fill(0x4de3ff).stroke({ width: 2, color: 0xe8fdff });
  g.circle(2, 0, 3).fill(0x0a2030);
  g.rect(-15, -3, 5, 6).fill(0xffa040);
  return g;
}

function makeTextures(renderer: Renderer): { dot: Texture; enemy: Texture; bullet: Texture } {
  // A soft round glow: stacked translucent discs, white so a tint colours it.
  const dot = new Graphics();
  for (let i = 0; i < 8; i++) dot.circle(0, 0, 8 - i).fill({ color: 0xffffff, alpha: 0.12 + i * 0.03 });
  dot.circle(0, 0, 2).fill(0xffffff);

  // An enemy drone pointing right: light body (tinted by its swarm), dark eye.
  const enemy = new Graphics();
  enemy.poly([11, 0, 2, -9, -9, -7, -5, 0, -9, 7, 2, 9]).fill(0xe6e6e6).stroke({ width: 1.5, color: 0xffffff });
  enemy.circle(3, 0, 3).fill(0x1a0a10);

  const bullet = new Graphics();
  bullet.roundRect(-9, -3.5, 18, 7, 3.5).fill({ color: 0xffffff, alpha: 0.25 });
  bullet.roundRect(-7, -2, 14, 4, 2).fill(0xffffff);

  const out = {
    dot: renderer.generateTexture({ target: dot, resolution: 2, antialias: true }),
    enemy: renderer.generateTexture({ target: enemy, resolution: 2, antialias: true }),
    bullet: renderer.generateTexture({ target: bullet, resolution: 2, antialias: true }),
  };
  dot.destroy();
  enemy.destroy();
  bullet.destroy();
  return out;
}
