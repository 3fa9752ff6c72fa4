// @vitest-environment happy-dom
import { Graphics, ParticleContainer, Text, type Particle } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree } from '../../src/core/index.js';
import {
  ParticleCuller,
  QuadtreeHud,
  QuadtreeOverlay,
  SpriteCuller,
  type CullOptions,
  type QuadtreeHudOptions,
  type QuadtreeOverlayOptions,
} from '../../src/pixi/index.js';

function thrown(call: () => unknown): string {
  try {
    call();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

// Plain JavaScript passes any object: the casts stand for a game written without types.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T names the options type the plain object stands in for
const loose = <T>(o: object) => o as T;

describe('PixiJS helpers refuse unknown option keys', () => {
  it('QuadtreeOverlay', () => {
    expect(thrown(() => new QuadtreeOverlay(new Graphics(), loose<QuadtreeOverlayOptions>({ pair: true })))).toBe(
      'bitecs-quadtree: unknown QuadtreeOverlay option "pair" (did you mean "pairs"?)',
    );
    expect(
      thrown(() => new QuadtreeOverlay(new Graphics(), loose<QuadtreeOverlayOptions>({ nodeColor: 0xffffff }))),
    ).toBe('bitecs-quadtree: unknown QuadtreeOverlay option "nodeColor" (did you mean "nodeColors"?)');
    const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true, maxDepth: 5, bounds: 'cell' });
    expect([overlay.pairs, overlay.maxDepth, overlay.bounds]).toEqual([true, 5, 'cell']);
  });

  it('SpriteCuller', () => {
    expect(thrown(() => new SpriteCuller(loose<CullOptions>({ margn: 4 })))).toBe(
      'bitecs-quadtree: unknown SpriteCuller option "margn" (did you mean "margin"?)',
    );
    expect(new SpriteCuller({ margin: 4, mask: 2 }).margin).toBe(4);
  });

  it('QuadtreeHud', () => {
    expect(thrown(() => new QuadtreeHud(new Text(), loose<QuadtreeHudOptions>({ line: ['fps'] })))).toBe(
      'bitecs-quadtree: unknown QuadtreeHud option "line" (did you mean "lines"?)',
    );
    expect(new QuadtreeHud(new Text(), { refreshMs: 100 }).refreshMs).toBe(100);
  });

  it('ParticleCuller', () => {
    expect(thrown(() => new ParticleCuller(new ParticleContainer(), loose<CullOptions>({ sortByID: true })))).toBe(
      'bitecs-quadtree: unknown ParticleCuller option "sortByID" (did you mean "sortById"?)',
    );
    expect(new ParticleCuller(new ParticleContainer(), { sortById: true, margin: 2 }).sortById).toBe(true);
  });
});

describe('PixiJS helpers refuse option values of the wrong kind, by name', () => {
  const overlay = (o: object) => () => new QuadtreeOverlay(new Graphics(), loose<QuadtreeOverlayOptions>(o));
  it.each([
    [{ pairs: 'yes' }, 'pairs must be true or false (got "yes")'],
    [{ items: 1 }, 'items must be true or false (got 1)'],
    [{ skipEmpty: 'false' }, 'skipEmpty must be true or false (got "false")'],
    [{ pixelLine: 0 }, 'pixelLine must be true or false (got 0)'],
    [{ paths: {} }, 'paths must be true or false (got [object Object])'],
    [{ maxDepth: 'deep' }, 'maxDepth must be a number >= 0 (got "deep")'],
    [{ lineWidth: -1 }, 'lineWidth must be a number >= 0 (got -1)'],
    [{ maxItems: NaN }, 'maxItems must be a number >= 0 (got NaN)'],
    [{ maxPairs: '100' }, 'maxPairs must be a number >= 0 (got "100")'],
    [{ alpha: 2 }, 'alpha must be a number from 0 to 1 (got 2)'],
    [{ bounds: 'tight' }, "bounds must be 'loose' or 'cell' (got \"tight\")"],
  ])('QuadtreeOverlay %o', (options, message) => {
    expect(thrown(overlay(options))).toBe(`bitecs-quadtree: QuadtreeOverlay ${message}`);
  });

  it('ParticleCuller sortById, with the container left as it was', () => {
    const container = new ParticleContainer();
    const game = loose<Particle>({ x: 1, y: 2 });
    container.particleChildren.push(game);
    expect(thrown(() => new ParticleCuller(container, loose<CullOptions>({ sortById: 'yes' })))).toBe(
      'bitecs-quadtree: ParticleCuller sortById must be true or false (got "yes")',
    );
    expect(container.particleChildren).toEqual([game]);
  });
});

describe('cullers refuse a margin that is not a finite number >= 0', () => {
  for (const margin of [-1, NaN, Infinity, '4']) {
    it(`${String(margin)}: as an option, and set on the field before a cull`, () => {
      const message = `bitecs-quadtree: cull margin must be a finite number >= 0 (got ${typeof margin === 'string' ? '"4"' : String(margin)})`;
      expect(thrown(() => new SpriteCuller(loose<CullOptions>({ margin })))).toBe(message);
      expect(thrown(() => new ParticleCuller(new ParticleContainer(), loose<CullOptions>({ margin })))).toBe(message);
      const tree = new LooseQuadtree({ width: 100, height: 100 });
      const sprites = new SpriteCuller();
      const particles = new ParticleCuller(new ParticleContainer());
      sprites.margin = margin as number;
      particles.margin = margin as number;
      expect(thrown(() => sprites.cull(tree, 0, 0, 10, 10))).toBe(message);
      expect(thrown(() => particles.cull(tree, 0, 0, 10, 10))).toBe(message);
    });
  }
});
