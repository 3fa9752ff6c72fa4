/**
 * From what size a step budget pays: the effects scene as a bitECS game, without the plugin,
 * with it and no budget, and with it under each budget, at each particle count. Each frame is
 * timed in CPU time (user + system), so that other processes on a shared machine do not
 * count; the plugin's share is the game with it minus the game without it (medians).
 *
 *   npx tsx bench/budget-sizes.ts --n 5000,20000 --budget 3000 --frames 60
 */
import { parseArgs } from 'node:util';
import { EffectsGame } from './effects-ecs.js';
import { EffectsScene } from './effects-scene.js';
import { PairSum } from './contender.js';
import { median } from './summary.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '5000,8000,12000,20000,50000' },
    budget: { type: 'string', default: '3000' },
    frames: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '160' },
  },
});
const list = (text: string) => text.split(',').map(Number);
const frames = Number(values.frames);
const warmup = Number(values.warmup);
const gc = (globalThis as { gc?: (o: object) => void }).gc;

interface Lane {
  name: string;
  game: EffectsGame;
  scene: EffectsScene;
  ms: number[];
  tests: number[];
  budgeted: number[];
  deferred: number[];
}

for (const n of list(values.n)) {
  const lane = (name: string, game: EffectsGame): Lane => {
    const scene = new EffectsScene(n);
    game.setup(scene);
    return { name, game, scene, ms: [], tests: [], budgeted: [], deferred: [] };
  };
  const lanes = [
    lane('game alone', new EffectsGame({ plugin: false })),
    lane('no budget', new EffectsGame({ plugin: true })),
    ...list(values.budget).map((b) =>
      lane(`budget ${b}`, new EffectsGame({ plugin: true, budget: { maxPairTests: b } })),
    ),
  ];
  const sum = new PairSum();
  for (let f = 0; f < warmup + frames; f++) {
    // Round-robin, so that no lane always runs first.
    for (let r = 0; r < lanes.length; r++) {
      const l = lanes[(f + r) % lanes.length];
      l.scene.advance();
      sum.reset();
      gc?.({ type: 'minor' });
      const start = process.cpuUsage();
      l.game.frame(l.scene, sum);
      const used = process.cpuUsage(start);
      if (f < warmup) continue;
      l.ms.push((used.user + used.system) / 1000);
      l.tests.push(l.game.pairTests());
      l.budgeted.push(l.game.budgetedTests());
      l.deferred.push(l.game.deferred());
    }
  }
  const game = median(lanes[0].ms);
  const unbudgeted = median(lanes[1].ms) - game;
  console.log(`${n} particles (${n + lanes[0].scene.firstDust} entities): the game alone ${game.toFixed(2)} ms`);
  for (const l of lanes.slice(1)) {
    const share = median(l.ms) - game;
    console.log(
      `  ${l.name}: plugin ${share.toFixed(2)} ms (${(share / unbudgeted).toFixed(2)}x), ` +
        `pairTests ${Math.round(median(l.tests))}, budgetedTests ${Math.round(median(l.budgeted))}, deferred ${Math.round(median(l.deferred))}`,
    );
  }
}
