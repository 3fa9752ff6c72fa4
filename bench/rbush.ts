import RBush from 'rbush';
import type { Contender, ContenderSpec, PairSum } from './contender.js';
import type { Scene } from './scene.js';

interface Item {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  id: number;
}

/** rbush's own default, kept with --no-tune. */
export const DEFAULT_MAX_ENTRIES = 9;

/** Bulk load once; per frame remove and reinsert the movers, then search per item. */
class RBushContender implements Contender {
  private tree = new RBush<Item>();
  private items: Item[] = [];
  private readonly maxEntries: number;

  constructor(maxEntries: number) {
    this.maxEntries = maxEntries;
  }

  setup(scene: Scene): void {
    this.items = [];
    for (let i = 0; i < scene.n; i++) {
      this.items.push({ minX: scene.minX[i], minY: scene.minY[i], maxX: scene.maxX[i], maxY: scene.maxY[i], id: i });
    }
    this.tree = new RBush<Item>(this.maxEntries).load(this.items);
  }

  frame(scene: Scene, sum: PairSum): void {
    const { tree, items } = this;
    const { movers, minX, minY, maxX, maxY } = scene;
    for (let k = 0; k < movers.length; k++) {
      const item = items[movers[k]];
      const i = item.id;
      tree.remove(item);
      item.minX = minX[i];
      item.minY = minY[i];
      item.maxX = maxX[i];
      item.maxY = maxY[i];
      tree.insert(item);
    }
    for (let i = 0; i < items.length; i++) {
      const x0 = minX[i],
        y0 = minY[i],
        x1 = maxX[i],
        y1 = maxY[i];
      const found = tree.search(items[i]);
      for (let c = 0; c < found.length; c++) {
        const j = found[c].id;
        if (j > i && x0 < maxX[j] && minX[j] < x1 && y0 < maxY[j] && minY[j] < y1) sum.add(i, j);
      }
    }
  }
}

export function rbushSpec(maxEntries = DEFAULT_MAX_ENTRIES): ContenderSpec {
  return {
    key: 'rbush',
    name: 'rbush',
    note: `\`load\` once (maxEntries ${maxEntries}); per frame \`remove\` + \`insert\` the movers, \`search\` per item, exact test, keep j > i`,
    tuning: { what: 'maxEntries', candidates: [4, 9, 16, 32], fallback: DEFAULT_MAX_ENTRIES, build: rbushSpec },
    create: () => new RBushContender(maxEntries),
  };
}
