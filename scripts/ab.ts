/**
 * A/B of the library against an earlier commit, in one process: both versions' bench
 * contenders are bundled (the earlier one from `git archive`), then played frame by frame in
 * turn by the bench's lockstep runner, so that a machine drifting between fast and slow modes
 * hits both alike; every frame's pairs of the new version are checked against the old's.
 *
 *   npm run ab -- --base HEAD~1 --scene effects --n 100000 --only core,ecs-off
 *   npm run ab -- --base main --scene bounce --mode 10 --n 10000,100000
 *
 * Prints, per item count, each contender's median frame per run, and new / old per run with
 * their median: below 1 the working tree is faster.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSync } from 'esbuild';
import type { ContenderSpec, Steppable } from '../bench/contender.js';
import type { LockstepPlan, LockstepResult } from '../bench/lockstep.js';

/** What each version's bundle exports: its contenders, scenes and the lockstep runner. */
interface Version {
  effectsSpecs(): ContenderSpec<Steppable>[];
  stormSpecs(): ContenderSpec<Steppable>[];
  bounceSpecs(): ContenderSpec<Steppable>[];
  EffectsScene: new (n: number) => Steppable;
  StormScene: new (n: number) => Steppable;
  Scene: new (n: number, mode: 'all' | 10) => Steppable;
  runLockstep(plan: LockstepPlan<Steppable>): LockstepResult;
  UNCAPPED: LockstepPlan<Steppable>['budgets'][number];
}

const ENTRY = `export { effectsSpecs } from './bench/effects.js';
export { stormSpecs } from './bench/storm.js';
export { bounceSpecs } from './bench/bounce.js';
export { EffectsScene } from './bench/effects-scene.js';
export { StormScene } from './bench/storm-scene.js';
export { Scene } from './bench/scene.js';
export { runLockstep, UNCAPPED } from './bench/lockstep.js';`;

const root = resolve(import.meta.dirname, '..');
const cache = join(root, 'node_modules/.cache/ab');

/** Bundles the entry from the tree at `dir` into `out` and imports it. */
async function load(dir: string, out: string): Promise<Version> {
  buildSync({
    stdin: { contents: ENTRY, resolveDir: dir, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: out,
    logLevel: 'warning',
  });
  return (await import(pathToFileURL(out).href)) as Version;
}

/** The sources of commit `ref`, unpacked once under node_modules/.cache/ab (bare imports resolve from there). */
function checkout(ref: string): { sha: string; dir: string } {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: root, encoding: 'utf8' }).trim();
  const dir = join(cache, sha);
  if (!existsSync(dir)) {
    // Unpacked beside it and renamed: an interrupted run leaves no half tree behind.
    const part = `${dir}.${process.pid}`;
    mkdirSync(part, { recursive: true });
    const tar = execFileSync('git', ['archive', sha, 'src', 'bench'], { cwd: root, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', part], { input: tar });
    renameSync(part, dir);
  }
  return { sha, dir };
}

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'HEAD' },
    scene: { type: 'string', default: 'effects' },
    mode: { type: 'string', default: 'all' },
    n: { type: 'string', default: '100000' },
    only: { type: 'string', default: 'ours,core' },
    runs: { type: 'string', default: '3' },
    warmup: { type: 'string' },
    frames: { type: 'string', default: '100' },
  },
});
if (!['effects', 'storm', 'bounce'].includes(values.scene)) throw new Error(`--scene: effects, storm or bounce`);
if (values.mode !== 'all' && values.mode !== '10') throw new Error('--mode: all or 10');
const mode = values.mode === 'all' ? 'all' : 10;
const keys = values.only.split(',');
const { sha, dir } = checkout(values.base);
const before = await load(dir, join(cache, `${sha}.mjs`));
const after = await load(root, join(cache, 'working-tree.mjs'));

function specsOf(v: Version, tag: string): ContenderSpec<Steppable>[] {
  const all =
    values.scene === 'effects' ? v.effectsSpecs() : values.scene === 'storm' ? v.stormSpecs() : v.bounceSpecs();
  return all
    .filter((s) => keys.includes(s.key))
    .map((s) => ({ ...s, key: `${s.key}@${tag}`, name: `${s.name} (${tag})` }));
}
const old = specsOf(before, 'old');
const fresh = specsOf(after, 'new');
if (old.length === 0) throw new Error(`--only ${values.only}: no such contender in the ${values.scene} scene`);
if (fresh.map((s) => s.key.replace('@new', '')).join() !== old.map((s) => s.key.replace('@old', '')).join())
  throw new Error(`--only ${values.only}: the two versions do not have the same contenders`);
const specs = [...old, ...fresh];
/** The game without the plugin finds no pairs, and a budget leaves pairs of the lower tiers waiting. */
const compare = (spec: { readonly key: string }): 'all' | 'top' | 'none' =>
  spec.key.startsWith('game@') ? 'none' : spec.key.startsWith('ecs-budget@') ? 'top' : 'all';
// The old version's first contender that finds every pair (else a budgeted one): the new ones must find the same.
const complete = specs.findIndex((s) => compare(s) === 'all');
const reference = complete >= 0 ? complete : specs.findIndex((s) => compare(s) !== 'none');
console.log(`new (working tree) against old (${values.base}, ${sha.slice(0, 10)}), ${values.scene} scene`);
for (const n of values.n.split(',').map(Number)) {
  const result = after.runLockstep({
    title: `${values.scene}, N=${n}`,
    scene: () =>
      values.scene === 'effects'
        ? new after.EffectsScene(n)
        : values.scene === 'storm'
          ? new after.StormScene(n)
          : new after.Scene(n, mode),
    specs,
    budgets: specs.map(() => after.UNCAPPED),
    reference,
    oracle: null,
    compare,
    warmup: Number(values.warmup ?? (values.scene === 'effects' ? 160 : 10)),
    frames: Number(values.frames),
    runs: Number(values.runs),
    log: (line) => console.log(line),
  });
  for (let i = 0; i < old.length; i++) {
    const a = result.series[i];
    const b = result.series[i + old.length];
    const ratios = a.medians.map((m, r) => b.medians[r] / m).sort((x, y) => x - y);
    const mismatch = b.mismatch === '' ? '' : ` MISMATCH ${b.mismatch}`;
    console.log(
      `${a.spec.key.replace('@old', '')} N=${n}: new / old ${ratios.map((r) => r.toFixed(3)).join(' ')}, ` +
        `median ${ratios[ratios.length >> 1].toFixed(3)}${mismatch}`,
    );
  }
}
