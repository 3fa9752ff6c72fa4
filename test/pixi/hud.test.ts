// @vitest-environment happy-dom
import { addEntity, createWorld } from 'bitecs';
import { Text } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import {
  addQuadtree,
  Bounds,
  Position,
  quadtreeCollisionSystem,
  quadtreeDispatchSystem,
  quadtreeSyncSystem,
  getStats,
} from '../../src/index.js';
import { QuadtreeHud, type HudLine, type HudStats, type QuadtreeHudOptions } from '../../src/pixi/index.js';

/** Stats with every number the HUD reads, each distinct, as a world's would be after a step. */
function fakeStats(): HudStats {
  return {
    entities: 12345,
    static: 120,
    pairs: 1234,
    entered: 12,
    exited: 10,
    enteredByTier: new Int32Array([1, 0, 2, 3]),
    stayedByTier: new Int32Array([9, 5, 298, 904]),
    deferred: 40,
    waitBound: 0,
    syncMs: 0.2,
    collisionMs: 1.1,
    dispatchMs: 0.5,
    handlerMs: 0.3,
    handlerCalls: 456,
    handlerDeferred: 7,
    handlersCut: 1,
    pairTests: 1000000,
    dirty: 400,
    relocated: 12,
    nodesLive: 500,
    nodesFree: 20,
  };
}

/** A stand-in text that counts the writes to `text` (a real Text ignores a write of the same string). */
class CountingText {
  x = 0;
  y = 0;
  style = { fill: 0 as unknown };
  writes = 0;
  private value = '';
  get text(): string {
    return this.value;
  }
  set text(v: string) {
    this.writes++;
    this.value = v;
  }
}

function thrown(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

// Plain JavaScript passes anything: the casts stand for a game written without types.
const loose = (o: object) => o as QuadtreeHudOptions;

describe('QuadtreeHud', () => {
  it('writes the default lines at the first update', () => {
    const hud = new QuadtreeHud(new Text());
    expect(hud.update(fakeStats(), 20)).toBe(true);
    expect(hud.text.text).toBe(
      [
        'fps       50 · 20.00 ms a frame',
        'entities  12,345 · 120 static',
        'pairs     1,234 · +12 -10',
        'by tier   0: 10 · 1: 5 · 2: 300 · 3: 907',
        'deferred  40',
        'ms        plugin 1.50 · sync 0.20 · collision 1.10 · dispatch 0.20 · handlers 0.30',
      ].join('\n'),
    );
    expect(hud.lines).toEqual(['fps', 'entities', 'pairs', 'tiers', 'deferred', 'ms']);
  });

  it('shows the lines asked for, in their order', () => {
    const stats = { ...fakeStats(), waitBound: 6 };
    const hud = new QuadtreeHud(new Text(), { lines: ['tree', 'checks', 'handlers', 'deferred'] });
    hud.update(stats, 16);
    expect(hud.text.text).toBe(
      [
        'tree      500 nodes · 20 free',
        'checks    1,000,000 tests · 400 moved · 12 relocated',
        'handlers  456 calls · 7 waiting · 1 cut',
        'deferred  40 · each checked within 6 steps',
      ].join('\n'),
    );
  });

  it("shows the dispatch's own part and the handlers' apart, and the plugin's total without the handlers", () => {
    const stats = { ...fakeStats(), syncMs: 0.5, collisionMs: 1, dispatchMs: 2, handlerMs: 1.75 };
    const hud = new QuadtreeHud(new Text(), { lines: ['ms'] });
    hud.update(stats, 16);
    expect(hud.text.text).toBe('ms        plugin 1.75 · sync 0.50 · collision 1.00 · dispatch 0.25 · handlers 1.75');
    expect(hud.timings).toMatchObject({ pluginMs: 1.75, dispatchMs: 0.25, handlerMs: 1.75 });
  });

  it('shows timings as means over the frames since the last refresh', () => {
    const stats = fakeStats();
    const hud = new QuadtreeHud(new Text(), { lines: ['fps', 'ms'], refreshMs: 100 });
    hud.update(stats, 10);
    // The browser's timer steps by 0.1 ms: a 0.05 ms system reads 0 or 0.1 frame by frame.
    for (let i = 0; i < 10; i++) {
      stats.syncMs = i % 2 === 0 ? 0 : 0.1;
      stats.collisionMs = 1 + i / 10;
      const wrote = hud.update(stats, i < 5 ? 8 : 12);
      expect(wrote).toBe(i === 9);
    }
    expect(hud.timings.fps).toBeCloseTo(100, 10);
    expect(hud.timings.frameMs).toBeCloseTo(10, 10);
    expect(hud.timings.syncMs).toBeCloseTo(0.05, 10);
    expect(hud.timings.collisionMs).toBeCloseTo(1.45, 10);
    expect(hud.text.text).toBe(
      'fps       100 · 10.00 ms a frame\n' +
        'ms        plugin 1.70 · sync 0.05 · collision 1.45 · dispatch 0.20 · handlers 0.30',
    );
  });

  it('rewrites the text only when a number it shows changes', () => {
    const stats = fakeStats();
    const text = new CountingText();
    const hud = new QuadtreeHud(text, { lines: ['entities', 'pairs'], refreshMs: 0 });
    for (let i = 0; i < 5; i++) hud.update(stats, 16);
    expect([text.writes, hud.rewrites]).toEqual([1, 1]);
    // Numbers of lines not shown, and timings too small to change a digit, rewrite nothing.
    stats.nodesLive = 7;
    stats.syncMs += 0.001;
    expect(hud.update(stats, 16)).toBe(false);
    expect(text.writes).toBe(1);
    stats.entities++;
    expect(hud.update(stats, 16)).toBe(true);
    expect(text.writes).toBe(2);
    expect(text.text).toBe('entities  12,346 · 120 static\npairs     1,234 · +12 -10');
  });

  it('groups thousands', () => {
    const hud = new QuadtreeHud(new Text(), { lines: ['entities'], refreshMs: 0 });
    const shown = (entities: number, staticCount: number) => {
      hud.update({ ...fakeStats(), entities, static: staticCount }, 16);
      return hud.text.text;
    };
    expect(shown(0, 999)).toBe('entities  0 · 999 static');
    expect(shown(1000, 100000)).toBe('entities  1,000 · 100,000 static');
    expect(shown(1234567, 10000001)).toBe('entities  1,234,567 · 10,000,001 static');
  });

  it("reads a world's stats", () => {
    const world = addQuadtree(createWorld(), { width: 256, height: 256 });
    for (const x of [10, 12, 100]) {
      const eid = addEntity(world, Position, Bounds);
      Position.x[eid] = Position.y[eid] = x;
      Bounds.width[eid] = Bounds.height[eid] = 4;
    }
    quadtreeDispatchSystem(quadtreeCollisionSystem(quadtreeSyncSystem(world)));
    const hud = new QuadtreeHud(new Text(), { lines: ['entities', 'pairs'] });
    hud.update(getStats(world), 16);
    expect(hud.text.text).toBe('entities  3 · 0 static\npairs     1 · +1 -0');
  });

  it('places and colours the text when asked, and leaves it alone otherwise', () => {
    const text = new Text({ style: { fill: 0x123456 } });
    text.position.set(5, 6);
    new QuadtreeHud(text);
    expect([text.x, text.y, text.style.fill]).toEqual([5, 6, 0x123456]);
    new QuadtreeHud(text, { x: 8, y: 9, color: 0xffee00 });
    expect([text.x, text.y, text.style.fill]).toEqual([8, 9, 0xffee00]);
  });

  it('refuses bad options and arguments by name', () => {
    const text = new Text();
    expect(thrown(() => new QuadtreeHud(text, loose({ refresh: 100 })))).toBe(
      'bitecs-quadtree: unknown QuadtreeHud option "refresh" (did you mean "refreshMs"?)',
    );
    expect(thrown(() => new QuadtreeHud(text, { lines: ['fps', 'fsp' as HudLine] }))).toBe(
      'bitecs-quadtree: unknown QuadtreeHud line "fsp" (did you mean "fps"?)',
    );
    expect(thrown(() => new QuadtreeHud(text, { lines: [] }))).toBe(
      'bitecs-quadtree: QuadtreeHud lines must be a non-empty array of line names (got )',
    );
    expect(thrown(() => new QuadtreeHud(text, { refreshMs: -1 }))).toBe(
      'bitecs-quadtree: QuadtreeHud refreshMs must be a number >= 0 (got -1)',
    );
    expect(thrown(() => new QuadtreeHud(text, { x: NaN }))).toBe(
      'bitecs-quadtree: QuadtreeHud x must be a finite number (got NaN)',
    );
    expect(thrown(() => new QuadtreeHud(text, { color: 0x1000000 }))).toBe(
      'bitecs-quadtree: QuadtreeHud color must be a colour 0x000000..0xffffff (got 16777216)',
    );
    expect(thrown(() => new QuadtreeHud(null as unknown as Text))).toBe(
      'bitecs-quadtree: QuadtreeHud needs a PixiJS Text, BitmapText or HTMLText (got null)',
    );
    const hud = new QuadtreeHud(text);
    expect(thrown(() => hud.update(fakeStats(), NaN))).toBe(
      'bitecs-quadtree: QuadtreeHud.update deltaMs must be a finite number >= 0 (got NaN)',
    );
  });
});
