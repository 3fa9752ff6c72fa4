import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/**
 * Long random runs of the core and ECS oracles: `npm run fuzz -- --minutes 10`. Each round
 * runs the oracles (core, swept items, churn, ECS, ECS churn, rollback of the core and of a world) with `ORACLE_STEPS` steps per scenario (budgets switched on and off, items
 * at up to ±1e300) and a new seed shift, until the time is up; then prints what was checked.
 * A failing round stops the run and prints the seed that reproduces it:
 * `ORACLE_STEPS=<steps> ORACLE_SEED=<seed> npx vitest run --project unit test/core/oracle.test.ts`.
 * First, once, the scale test with a million boxes (`SCALE_ITEMS=1000000`).
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    steps: { type: 'string', default: '3000' },
    seed: { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const steps = Number(values.steps);
if (!(minutes > 0) || !Number.isInteger(steps) || steps <= 0) {
  console.error('usage: npm run fuzz -- [--minutes 5] [--steps 3000] [--seed n]');
  process.exit(2);
}
let seed = values.seed === undefined ? Date.now() % 1_000_000 : Number(values.seed);
const deadline = Date.now() + minutes * 60_000;
const totals = new Map<string, Record<string, number>>();
let rounds = 0;

const million = spawnSync('npx', ['vitest', 'run', '--project', 'unit', 'test/core/scale.test.ts'], {
  env: { ...process.env, SCALE_ITEMS: '1000000' },
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
if (million.status !== 0) {
  console.error(`${million.stdout}\n${million.stderr}`);
  console.error('fuzz: the scale test FAILED with SCALE_ITEMS=1000000');
  process.exit(1);
}
console.log('fuzz: a million boxes (insert, steps, moves, removals, every query kind) matched the oracles');

do {
  const started = Date.now();
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'unit',
      'test/core/oracle.test.ts',
      'test/core/swept.test.ts',
      'test/core/churn.test.ts',
      'test/ecs/oracle.test.ts',
      'test/ecs/churn.test.ts',
      'test/core/rollback.test.ts',
      'test/ecs/rollback.test.ts',
    ],
    {
      env: { ...process.env, ORACLE_STEPS: String(steps), ORACLE_SEED: String(seed) },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const output = `${run.stdout}\n${run.stderr}`;
  if (run.status !== 0) {
    console.error(output);
    console.error(`fuzz: round ${rounds + 1} FAILED with ORACLE_STEPS=${steps} ORACLE_SEED=${seed}`);
    process.exit(1);
  }
  for (const match of output.matchAll(/oracle counts (\w+) (\{.*\})/g)) {
    const sum = totals.get(match[1]) ?? {};
    for (const [k, v] of Object.entries(JSON.parse(match[2]) as Record<string, number>)) sum[k] = (sum[k] ?? 0) + v;
    totals.set(match[1], sum);
  }
  rounds++;
  console.log(
    `fuzz: round ${rounds} (seed ${seed}, ${steps} steps per scenario) passed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  seed += 1000;
} while (Date.now() < deadline);

console.log(`fuzz: ${rounds} rounds, 0 mismatches`);
for (const [oracle, sum] of totals) console.log(`fuzz: ${oracle}: ${JSON.stringify(sum)}`);
