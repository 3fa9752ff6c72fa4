// @vitest-environment happy-dom
import { Graphics, type StrokeInstruction } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { LooseQuadtree, Shape } from '../../src/core/index.js';
import { QuadtreeOverlay, depthColor, type QuadtreeOverlayOptions } from '../../src/pixi/index.js';

type Rect = [number, number, number, number];
interface Stroke {
  color: number;
  alpha: number;
  width: number;
  pixelLine: boolean;
  rects: Rect[];
  circles: number[][];
  lines: number[][];
}

/** The strokes of a Graphics, with the rectangles and polylines of each. */
function strokes(g: Graphics): Stroke[] {
  return g.context.instructions.map((ins) => {
    expect(ins.action).toBe('stroke');
    const { style, path } = (ins as StrokeInstruction).data;
    const rects: Rect[] = [];
    const lines: number[][] = [];
    const circles: number[][] = [];
    for (const p of path.shapePath.shapePrimitives) {
      const s = p.shape as unknown as {
        type: string;
        x: number;
        y: number;
        width: number;
        height: number;
        radius: number;
        points: number[];
      };
      if (s.type === 'rectangle') rects.push([s.x, s.y, s.width, s.height]);
      else if (s.type === 'circle') circles.push([s.x, s.y, s.radius]);
      else lines.push([...s.points]);
    }
    return {
      color: style.color,
      alpha: style.alpha,
      width: style.width,
      pixelLine: style.pixelLine,
      rects,
      circles,
      lines,
    };
  });
}

function sortRects(rects: Rect[]): Rect[] {
  return [...rects].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || a[3] - b[3]);
}

/** The loose bounds of the four children of the cell at (x, y) of side `size`. */
function looseChildren(x: number, y: number, size: number): Rect[] {
  const h = size / 2;
  return [
    [x, y],
    [x + h, y],
    [x, y + h],
    [x + h, y + h],
  ].map(([cx, cy]) => [cx - h / 2, cy - h / 2, 2 * h, 2 * h] as Rect);
}

// A 256-wide world, maxDepth 3: a 2x2 item near the origin sits in a depth-3 leaf, so the
// tree is the root, its four children, four grandchildren in the top-left and four
// great-grandchildren in the top-left of those.
function knownTree(): LooseQuadtree {
  const tree = new LooseQuadtree({ width: 256, height: 256, maxDepth: 3 });
  tree.insert(1, 9, 9, 11, 11);
  tree.step();
  return tree;
}

describe('depthColor', () => {
  it('runs from white at the root to red at maxDepth', () => {
    expect(depthColor(0, 3)).toBe(0xffffff);
    expect(depthColor(1, 3)).toBe(0xffaaaa);
    expect(depthColor(2, 3)).toBe(0xff5555);
    expect(depthColor(3, 3)).toBe(0xff0000);
    expect(depthColor(9, 3)).toBe(0xff0000);
    expect(depthColor(4, 8)).toBe(0xff8080);
  });
});

describe('QuadtreeOverlay', () => {
  it('strokes each depth once, deepest first, with the loose bounds of its nodes', () => {
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 3, pixelLine: false, lineWidth: 2, alpha: 0.75 });
    expect(overlay.draw(knownTree())).toBe(13);
    const out = strokes(overlay.graphics).reverse();
    expect(out.map((s) => s.color)).toEqual([0xffffff, 0xffaaaa, 0xff5555, 0xff0000]);
    for (const s of out) {
      expect(s.width).toBe(2);
      expect(s.pixelLine).toBe(false);
      expect(s.alpha).toBe(0.75);
      expect(s.lines).toEqual([]);
    }
    expect(out[0].rects).toEqual([[-128, -128, 512, 512]]);
    expect(sortRects(out[1].rects)).toEqual(sortRects(looseChildren(0, 0, 256)));
    expect(sortRects(out[2].rects)).toEqual(sortRects(looseChildren(0, 0, 128)));
    expect(sortRects(out[3].rects)).toEqual(sortRects(looseChildren(0, 0, 64)));
  });

  it('draws exactly the nodes visitNodes reports, on a random tree', () => {
    const tree = new LooseQuadtree({ x: -100, y: 50, width: 900, height: 400, maxDepth: 6 });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let id = 1; id <= 300; id++) {
      const x = -150 + rnd() * 1000;
      const y = rnd() * 500;
      const s = rnd() * 30;
      tree.insert(id, x, y, x + s, y + s);
    }
    tree.step();
    const expected: Rect[][] = [];
    tree.visitNodes((minX, minY, maxX, maxY, depth) => {
      (expected[depth] ??= []).push([minX, minY, maxX - minX, maxY - minY]);
    });
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 6 });
    overlay.draw(tree);
    const out = strokes(overlay.graphics);
    for (const s of out) expect(s.pixelLine).toBe(true);
    const depths = expected
      .map((_, d) => d)
      .filter((d) => expected[d])
      .reverse();
    expect(out.map((s) => s.color)).toEqual(depths.map((d) => depthColor(d, 6)));
    out.forEach((s, i) => expect(sortRects(s.rects)).toEqual(sortRects(expected[depths[i]])));
    expect(overlay.nodesDrawn).toBe(expected.flat().length);
  });

  it('clears before each draw, so redraws do not pile up', () => {
    const tree = knownTree();
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 3 });
    overlay.draw(tree);
    const first = strokes(overlay.graphics);
    overlay.draw(tree);
    overlay.draw(tree);
    expect(strokes(overlay.graphics)).toEqual(first);
  });

  it('draws only nodes overlapping the view, and skips empty ones on request', () => {
    const tree = knownTree();
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 3 });
    // Right of x = 300 only the root (to 384) and the two right children (to 320) reach.
    overlay.draw(tree, 300, 100, 310, 110);
    expect(strokes(overlay.graphics).map((s) => s.rects.length)).toEqual([2, 1]);
    overlay.skipEmpty = true;
    overlay.draw(tree);
    // The root, then one non-empty node per level down to the item's leaf.
    expect(strokes(overlay.graphics).map((s) => s.rects)).toEqual([
      [[-16, -16, 64, 64]],
      [[-32, -32, 128, 128]],
      [[-64, -64, 256, 256]],
      [[-128, -128, 512, 512]],
    ]);
  });

  it('draws the cells themselves on request', () => {
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 3, bounds: 'cell' });
    overlay.draw(knownTree());
    const out = strokes(overlay.graphics).reverse();
    expect(out[0].rects).toEqual([[0, 0, 256, 256]]);
    expect(sortRects(out[1].rects)).toEqual([
      [0, 0, 128, 128],
      [0, 128, 128, 128],
      [128, 0, 128, 128],
      [128, 128, 128, 128],
    ]);
    expect(sortRects(out[3].rects)).toEqual([
      [0, 0, 32, 32],
      [0, 32, 32, 32],
      [32, 0, 32, 32],
      [32, 32, 32, 32],
    ]);
  });

  it('draws item boxes in the view and pair lines by tier', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256, maxDepth: 3 });
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(2, 5, 5, 15, 15);
    tree.insert(3, 100, 100, 120, 110);
    tree.insert(4, 110, 100, 130, 110);
    tree.insert(5, 200, 200, 201, 201);
    tree.setCollider(1, 1, -1, 255);
    tree.setCollider(2, 1, -1, 200);
    tree.setCollider(3, 1, -1, 10);
    tree.step();
    const overlay = new QuadtreeOverlay(new Graphics(), {
      items: true,
      pairs: true,
      pairColors: [1, 2, 3, 4],
      pairLines: 'centers',
    });
    overlay.draw(tree, 0, 0, 150, 150);
    expect(overlay.itemsDrawn).toBe(4);
    expect(overlay.pairsDrawn).toBe(2);
    const out = strokes(overlay.graphics);
    const items = out.find((s) => s.color === 0x33ff99)!;
    expect(sortRects(items.rects)).toEqual([
      [0, 0, 10, 10],
      [5, 5, 10, 10],
      [100, 100, 20, 10],
      [110, 100, 20, 10],
    ]);
    // Pair (1, 2) has priority 200, tier 0; pair (3, 4) has priority 10, tier 3.
    expect(out.slice(-2).map((s) => [s.color, s.lines])).toEqual([
      [1, [[5, 5, 10, 10]]],
      [4, [[110, 105, 120, 105]]],
    ]);
    // An item removed after the step leaves its pairs out, without an error.
    tree.remove(2);
    overlay.draw(tree, 0, 0, 150, 150);
    expect(overlay.pairsDrawn).toBe(1);
    // A view away from both ends of every pair draws no pair line.
    overlay.draw(tree, 190, 190, 210, 210);
    expect(overlay.itemsDrawn).toBe(1);
    expect(overlay.pairsDrawn).toBe(0);
  });

  /** A 2,560 px wall along y 100..140 (id 1) and 4 px sparks sitting on its top edge at x 50, 300 and 900. */
  function wallScene(): LooseQuadtree {
    const tree = new LooseQuadtree({ width: 4096, height: 4096 });
    tree.insert(1, 0, 100, 2560, 140);
    tree.setStatic(1, true);
    [50, 300, 900].forEach((x, i) => tree.insert(2 + i, x - 2, 98, x + 2, 102));
    tree.step();
    return tree;
  }
  const pairLines = (overlay: QuadtreeOverlay) => strokes(overlay.graphics).flatMap((s) => s.lines);

  it('ends pair lines at the points of each item nearest the other, so a big wall draws no fan', () => {
    const tree = wallScene();
    const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true });
    overlay.draw(tree, 0, 0, 400, 400);
    // Each line runs from the wall's point under the spark's centre to the spark's corner nearest the wall's centre.
    expect(pairLines(overlay)).toEqual([
      [50, 100, 52, 102],
      [300, 100, 302, 102],
    ]);
    expect([overlay.pairsDrawn, overlay.offscreenPairsDrawn]).toEqual([2, 0]);
    // Centre to centre: two lines to the wall's centre, off to the right of the view.
    overlay.pairLines = 'centers';
    overlay.draw(tree, 0, 0, 400, 400);
    expect(pairLines(overlay)).toEqual([
      [1280, 120, 50, 100],
      [1280, 120, 300, 100],
    ]);
  });

  it('draws at most maxOffscreenPairs lines with both ends out of view', () => {
    const tree = wallScene();
    // The wall overlaps the view, so all three of its pairs are considered; the one at x 900 lies outside.
    for (const [pairLines, cap, lines, offscreen] of [
      ['nearest', 0, 2, 0],
      ['nearest', 1, 3, 1],
      ['centers', 0, 2, 0],
      ['centers', 5, 3, 1],
    ] as const) {
      const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true, pairLines, maxOffscreenPairs: cap });
      overlay.draw(tree, 0, 0, 400, 400);
      expect([overlay.pairsDrawn, overlay.offscreenPairsDrawn], `${pairLines}, cap ${cap}`).toEqual([lines, offscreen]);
    }
    // A view holding neither item of a pair draws no line for it, whatever the cap.
    const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true, maxOffscreenPairs: 100 });
    overlay.draw(tree, 3000, 0, 3400, 400);
    expect(overlay.pairsDrawn).toBe(0);
  });

  it("ends a pair line on a circle at the circle's point nearest the other's centre", () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    tree.insert(1, 40, 40, 60, 60);
    tree.setShape(1, Shape.Circle);
    tree.insert(2, 55, 45, 100, 55);
    tree.step();
    const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true });
    overlay.draw(tree, 0, 0, 256, 256);
    expect(pairLines(overlay)).toEqual([[60, 50, 55, 50]]);
  });

  it('draws only the items, pairs and paths of the layers asked for', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256 });
    // 1 and 2 (layer 1) overlap; 3 (layer 2) overlaps 4 (layer 4); 5 (layer 2) is swept and alone.
    tree.insert(1, 0, 0, 10, 10);
    tree.insert(2, 5, 5, 15, 15);
    tree.insert(3, 100, 100, 110, 110);
    tree.insert(4, 105, 105, 115, 115);
    tree.insert(5, 200, 200, 210, 210);
    for (const [id, layer] of [
      [1, 1],
      [2, 1],
      [3, 2],
      [4, 4],
      [5, 2],
    ]) {
      tree.setCollider(id, layer, -1, 128);
    }
    tree.setSwept(5, true);
    tree.step();
    tree.move(5, 220, 200, 230, 210);
    tree.step();
    const overlay = new QuadtreeOverlay(new Graphics(), { items: true, pairs: true, paths: true, layers: 2 });
    overlay.draw(tree);
    expect([overlay.itemsDrawn, overlay.pairsDrawn, overlay.pathsDrawn]).toEqual([2, 1, 1]);
    const items = strokes(overlay.graphics).find((s) => s.color === 0x33ff99)!;
    expect(sortRects(items.rects)).toEqual([
      [100, 100, 10, 10],
      [220, 200, 10, 10],
    ]);
    // A pair is drawn when one of its items is of a layer drawn: 4's layer alone brings in 3's pair.
    overlay.layers = 4;
    overlay.draw(tree);
    expect([overlay.itemsDrawn, overlay.pairsDrawn, overlay.pathsDrawn]).toEqual([1, 1, 0]);
    overlay.layers = -1;
    overlay.draw(tree);
    expect([overlay.itemsDrawn, overlay.pairsDrawn, overlay.pathsDrawn]).toEqual([5, 2, 1]);
  });

  it('draws a circle item as its circle, a box item as its box', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256, maxDepth: 3 });
    tree.insert(1, 10, 10, 30, 30);
    tree.insert(2, 50, 10, 60, 40);
    tree.setShape(1, Shape.Circle);
    tree.step();
    const overlay = new QuadtreeOverlay(new Graphics(), { items: true });
    overlay.draw(tree);
    expect(overlay.itemsDrawn).toBe(2);
    const items = strokes(overlay.graphics).find((s) => s.color === 0x33ff99)!;
    expect(items.circles).toEqual([[20, 20, 10]]);
    expect(items.rects).toEqual([[50, 10, 10, 30]]);
  });

  it('draws the path each swept item in the view was tested along', () => {
    const tree = new LooseQuadtree({ width: 256, height: 256, maxDepth: 3 });
    tree.insert(1, 10, 10, 14, 14);
    tree.insert(2, 100, 100, 110, 110);
    tree.insert(3, 200, 10, 204, 14);
    tree.setSwept(1, true);
    tree.setSwept(3, true);
    tree.move(1, 40, 20, 44, 24);
    tree.move(3, 220, 10, 224, 14);
    tree.step();
    const overlay = new QuadtreeOverlay(new Graphics(), { paths: true, pathColor: 7 });
    overlay.draw(tree, 0, 0, 150, 150);
    // Item 2 is not swept, item 3 is out of the view.
    expect(overlay.pathsDrawn).toBe(1);
    const path = strokes(overlay.graphics).find((s) => s.color === 7)!;
    expect(path.rects).toEqual([[10, 10, 34, 14]]);
    expect(path.lines).toEqual([[12, 12, 42, 22]]);
  });

  it('colours nodes from a palette by depth, the last entry for the depths below it', () => {
    const overlay = new QuadtreeOverlay(new Graphics(), { maxDepth: 3, nodeColors: [0x112233, 0x4488ff] });
    overlay.draw(knownTree());
    expect(strokes(overlay.graphics).map((s) => s.color)).toEqual([0x4488ff, 0x4488ff, 0x4488ff, 0x112233]);
    // A field like the others: one colour for every node from the next draw on.
    overlay.nodeColors = [0x00ff00];
    overlay.draw(knownTree());
    expect(strokes(overlay.graphics).map((s) => s.color)).toEqual([0x00ff00, 0x00ff00, 0x00ff00, 0x00ff00]);
  });

  it('colours nodes with a function of the depth and maxDepth, called once per depth drawn', () => {
    const calls: number[][] = [];
    const overlay = new QuadtreeOverlay(new Graphics(), {
      maxDepth: 5,
      nodeColors: (depth, maxDepth) => {
        calls.push([depth, maxDepth]);
        return depth * 0x10;
      },
    });
    overlay.draw(knownTree());
    expect(calls).toEqual([
      [3, 5],
      [2, 5],
      [1, 5],
      [0, 5],
    ]);
    expect(strokes(overlay.graphics).map((s) => s.color)).toEqual([0x30, 0x20, 0x10, 0]);
    // The default is depthColor.
    expect(new QuadtreeOverlay(new Graphics()).nodeColors).toBe(depthColor);
  });

  it('refuses colours that are not 0x000000..0xffffff, naming the option', () => {
    const make = (options: QuadtreeOverlayOptions) => () => new QuadtreeOverlay(new Graphics(), options);
    const bad = (value: unknown) => value as number;
    expect(make({ nodeColors: [] })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay nodeColors must be a non-empty array of colours or a function (got [])',
    );
    expect(make({ nodeColors: [0xffffff, bad('red')] })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay nodeColors[1] must be a colour 0x000000..0xffffff (got "red")',
    );
    expect(make({ pairColors: [1, 2, 3] as unknown as [number, number, number, number] })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay pairColors must be 4 colours, one per tier (got [1, 2, 3])',
    );
    expect(make({ pairColors: [1, 2, 3, -1] })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay pairColors[3] must be a colour 0x000000..0xffffff (got -1)',
    );
    expect(make({ itemColor: 0x1000000 })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay itemColor must be a colour 0x000000..0xffffff (got 16777216)',
    );
    expect(make({ pathColor: 1.5 })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay pathColor must be a colour 0x000000..0xffffff (got 1.5)',
    );
    // A function's colours are checked as they are drawn.
    const overlay = new QuadtreeOverlay(new Graphics(), { nodeColors: (depth) => (depth === 2 ? NaN : 0) });
    expect(() => overlay.draw(knownTree())).toThrow(
      'bitecs-quadtree: QuadtreeOverlay nodeColors gave no colour for depth 2 (got NaN)',
    );
  });

  it('refuses at the next draw a bad value set on a field after construction, naming it', () => {
    const cases: [string, unknown, string][] = [
      ['pairLines', 'x', `pairLines must be 'nearest' or 'centers' (got "x")`],
      ['layers', 1.5, 'layers must be a 32-bit integer mask of collision layers (got 1.5)'],
      ['maxOffscreenPairs', -2, 'maxOffscreenPairs must be a number >= 0 (got -2)'],
      ['pairColors', [1, 2], 'pairColors must be 4 colours, one per tier (got [1, 2])'],
      ['nodeColors', [0, 'red'], 'nodeColors[1] must be a colour 0x000000..0xffffff (got "red")'],
      ['itemColor', -1, 'itemColor must be a colour 0x000000..0xffffff (got -1)'],
      ['pairs', 'yes', 'pairs must be true or false (got "yes")'],
      ['alpha', NaN, 'alpha must be a number from 0 to 1 (got NaN)'],
      ['bounds', 'tight', `bounds must be 'loose' or 'cell' (got "tight")`],
    ];
    for (const [field, value, message] of cases) {
      const overlay = new QuadtreeOverlay(new Graphics(), { pairs: true });
      expect(overlay.draw(knownTree())).toBeGreaterThan(0);
      (overlay as unknown as Record<string, unknown>)[field] = value;
      expect(() => overlay.draw(knownTree())).toThrow(`bitecs-quadtree: QuadtreeOverlay ${message}`);
    }
  });

  it('refuses bad layers, pairLines and maxOffscreenPairs, naming the option', () => {
    const make = (options: object) => () => new QuadtreeOverlay(new Graphics(), options);
    expect(make({ layers: 1.5 })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay layers must be a 32-bit integer mask of collision layers (got 1.5)',
    );
    expect(make({ layers: '2' })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay layers must be a 32-bit integer mask of collision layers (got "2")',
    );
    expect(make({ layers: 2 ** 32 })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay layers must be a 32-bit integer mask of collision layers (got 4294967296)',
    );
    expect(make({ pairLines: 'centre' })).toThrow(
      "bitecs-quadtree: QuadtreeOverlay pairLines must be 'nearest' or 'centers' (got \"centre\")",
    );
    expect(make({ maxOffscreenPairs: -1 })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay maxOffscreenPairs must be a number >= 0 (got -1)',
    );
    expect(make({ maxOffscreenPairs: NaN })).toThrow(
      'bitecs-quadtree: QuadtreeOverlay maxOffscreenPairs must be a number >= 0 (got NaN)',
    );
    expect(make({ pairLine: 'nearest' })).toThrow(
      'bitecs-quadtree: unknown QuadtreeOverlay option "pairLine" (did you mean "pairLines"?)',
    );
    expect(make({ layer: 2 })).toThrow(
      'bitecs-quadtree: unknown QuadtreeOverlay option "layer" (did you mean "layers"?)',
    );
    const overlay = new QuadtreeOverlay(new Graphics(), {
      layers: 0xffffffff,
      pairLines: 'centers',
      maxOffscreenPairs: Infinity,
    });
    expect([overlay.layers, overlay.pairLines, overlay.maxOffscreenPairs]).toEqual([0xffffffff, 'centers', Infinity]);
  });

  it('refuses something that is not a Graphics', () => {
    expect(() => new QuadtreeOverlay(null as unknown as Graphics)).toThrow(
      /bitecs-quadtree: QuadtreeOverlay needs a PixiJS Graphics \(got null\)/,
    );
  });
});
