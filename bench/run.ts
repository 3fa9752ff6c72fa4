import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { bounceMismatches, bounceSection, bounceSpecs, MODE_TITLE, runBounce } from './bounce.js';
import { chartSvg, type ChartPanel } from './chart.js';
import { panelOf } from './chart-panels.js';
import type { Select } from './contender.js';
import { ecsMismatches, ecsSection, ecsSpecs, runEcsBench } from './ecs.js';
import {
  bounceWhere,
  headlinesOf,
  performancePage,
  PERFORMANCE_CHART,
  readmeBlock,
  writeDocs,
  type HeadlineSpec,
} from './docs.js';
import { label } from './format.js';
import { cellLegend, machineLine } from './report.js';
import { DEFAULT_SEED, type Mode } from './scene.js';
import { runStorm, stormMismatches, stormSection, stormSpecs } from './storm.js';
import { bulletsMismatches, bulletsSection, runBullets } from './bullets.js';
import { runSweep, sweepMismatches, sweepSection } from './sweep.js';
import { initRapier } from './rapier.js';
import { TUNED_FILE, tunedMismatches, tunedSection, type TuneOptions } from './tune.js';
import { effectsMismatches, effectsSection, effectsSpecs, runEffects } from './effects.js';
import { runShapes, shapesMismatches, shapesSection } from './shapes.js';
import { coldLoad, runTilemap, tilemapMismatches, tilemapSection, WALL_KINDS, type WallKind } from './tilemap.js';
import { rollbackMismatches, rollbackSection, runRollback } from './rollback.js';
import { bundleSection, bundleSizes } from './bundle.js';

const USAGE = `Usage: npm run bench -- [options]
  --scene a,b          scenes, comma-separated (default all): bounce (the peers' tables, the
                       maxDepth sweep, the ECS face table), storm (the particle storm), bullets
                       (swept bullets against the same scene unswept), effects (particle bursts
                       with lifetimes and recycled ids), shapes (the same items as boxes and as
                       circles, and contact per pair), tilemap (an arena's walls from a
                       200 x 200 tile map: the tile layer, one entity per tile, rectangles
                       merged beforehand), rollback (an arena game straight, saved every
                       frame, and rolled back eight frames every frame); both = bounce,storm
  --n 1000,10000       item counts: boxes for bounce (default 1000,10000,50000,100000), dust
                       particles for storm, items for bullets and shapes (default 10000,100000),
                       live particles for effects (default 5000,20000,50000,100000)
  --mode all|10|both   bounce: every item moves, a fixed 10% moves, or both (default both)
  --runs R             repeat each measurement R times, fresh scenes and contenders (default 3)
  --frames F           measured frames per run (default bounce: 100 at 1k, 60 at 10k, 40 at 50k,
                       30 above; storm: 120 up to 10k, 60 above; bullets: 120 up to 10k, 40
                       above; --quick: 15)
  --warmup W           unmeasured frames first, every run (default 10, effects 160 so that every id
                       has been recycled; --quick: 5, effects 30)
  --only a,b           run only the contenders whose key or name contains one of these. Keys:
                       bounce ${bounceSpecs()
                         .map((s) => s.key)
                         .join(', ')};
                       storm ${stormSpecs()
                         .map((s) => s.key)
                         .join(', ')}, brute (the check);
                       ECS table ${ecsSpecs()
                         .map((s) => s.key)
                         .join(', ')}; bullets unswept, swept;
                       shapes boxes, circles, boxes-contact, circles-contact;
                       effects ${effectsSpecs()
                         .map((s) => s.key)
                         .join(', ')}.
                       Pairs are checked only when the reference (bounce: brute up to 10k, ours
                       above; storm: grid; ECS: core) is among them.
  --depths 6,7,8       maxDepth values for the sweep of bitecs-quadtree (default 6..10)
  --no-sweep           skip the maxDepth sweep
  --retune             sweep the tunable peers' settings again (grid cell size, flatbush nodeSize,
                       rbush maxEntries, planck lengthUnitsPerMeter; the storm grid's cell size):
                       by default each scene and N is swept once on a machine, a few interleaved
                       frames per candidate, and the fastest setting is kept in
                       ${TUNED_FILE} for the runs after
  --no-tune            no sweep: run the tunable peers at their defaults
  --no-ecs             skip the bitECS-face table
  --seed S             scene seed (default ${DEFAULT_SEED})
  --markdown           print the results as Markdown sections
  --write-docs DIR     write DIR/docs/performance.md whole, its chart DIR/docs/performance.svg and
                       the Performance section of DIR/README.md between its perf:start and perf:end
                       markers (DIR is . for this repository's docs); every scene, no --only; nothing
                       is written when a pair set differs
  --chart FILE.svg     also write an SVG chart: ms per frame against the item count, log
                       scales, a line per contender (the median of the runs, a bar over their
                       range), a panel per scene table run at two counts or more. Default: no
                       chart. bench/results/ is ignored by git, for charts of your own
                       (--write-docs draws docs/performance.svg)
  --quick              smoke run: N = 1k, 10k (storm 10k), few frames, small sweep

Profiling one contender alone (nothing else runs, not even the pair check):
  npm run bench -- --scene storm --n 100000 --only ecs-off --runs 1 --no-sweep --no-ecs
  node --expose-gc --cpu-prof --cpu-prof-dir=prof node_modules/.cache/bench/run.mjs \\
    --scene storm --n 100000 --only ecs-off --runs 1 --no-sweep --no-ecs
(the first command also builds node_modules/.cache/bench/run.mjs; open the .cpuprofile in
Chrome DevTools or speedscope).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scene: { type: 'string', default: 'all' },
      n: { type: 'string' },
      mode: { type: 'string', default: 'both' },
      runs: { type: 'string' },
      frames: { type: 'string' },
      warmup: { type: 'string' },
      only: { type: 'string' },
      depths: { type: 'string' },
      'no-sweep': { type: 'boolean', default: false },
      retune: { type: 'boolean', default: false },
      'no-tune': { type: 'boolean', default: false },
      'no-ecs': { type: 'boolean', default: false },
      seed: { type: 'string' },
      markdown: { type: 'boolean', default: false },
      chart: { type: 'string' },
      'write-docs': { type: 'string' },
      quick: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      'tilemap-cold': { type: 'string' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const cold = values['tilemap-cold'];
  if (cold !== undefined) {
    // A child of the tilemap scene: one load in a fresh process.
    if (!(WALL_KINDS as string[]).includes(cold)) usage(`--tilemap-cold takes ${WALL_KINDS.join(', ')} (got ${cold})`);
    coldLoad(cold as WallKind, values.seed === undefined ? DEFAULT_SEED : numbers(values.seed, 'seed')[0]);
    return;
  }
  const quick = values.quick;
  const scene = values.scene;
  const scenes = new Set(
    scene
      .split(',')
      .map((x) => x.trim())
      .flatMap((x) =>
        x === 'both'
          ? ['bounce', 'storm']
          : x === 'all'
            ? ['bounce', 'storm', 'bullets', 'effects', 'shapes', 'tilemap', 'rollback']
            : [x],
      ),
  );
  for (const x of scenes) {
    if (!['bounce', 'storm', 'bullets', 'effects', 'shapes', 'tilemap', 'rollback'].includes(x))
      usage(`--scene takes bounce, storm, bullets, effects, shapes, tilemap, rollback, both or all (got ${scene})`);
  }
  const bounceNs = numbers(values.n ?? (quick ? '1000,10000' : '1000,10000,50000,100000'), 'n');
  const stormNs = numbers(values.n ?? (quick ? '10000' : '10000,100000'), 'n');
  const effectsNs = numbers(values.n ?? (quick ? '20000' : '5000,20000,50000,100000'), 'n');
  const rollbackNs = numbers(values.n ?? (quick ? '5000' : '20000'), 'n');
  const modes: Mode[] =
    values.mode === 'both'
      ? ['all', '10']
      : values.mode === 'all' || values.mode === '10'
        ? [values.mode]
        : usage(`--mode must be all, 10 or both (got ${values.mode})`);
  const runs = values.runs === undefined ? 3 : positive(values.runs, 'runs');
  const fixedFrames = values.frames === undefined ? undefined : numbers(values.frames, 'frames')[0];
  const warmup = values.warmup === undefined ? (quick ? 5 : 10) : numbers(values.warmup, 'warmup')[0];
  // Fewer frames per run than one long run would take, as the runs add up (and brute force,
  // the reference up to 10k, takes a quarter second a frame there).
  const framesFor = (n: number) =>
    fixedFrames ?? (quick ? 15 : n <= 1_000 ? 100 : n <= 10_000 ? 60 : n <= 50_000 ? 40 : 30);
  const stormFramesFor = (n: number) => fixedFrames ?? (quick ? 15 : n <= 10_000 ? 120 : 60);
  const bulletFramesFor = (n: number) => fixedFrames ?? (quick ? 15 : n <= 10_000 ? 120 : 40);
  // Effects start measuring once every particle alive at setup has died and bitECS has handed
  // its id to a newborn: before that the ids are still in order, and every pass looks cheaper.
  const effectsWarmup = values.warmup === undefined ? (quick ? 30 : 160) : warmup;
  const effectsFramesFor = (n: number) => fixedFrames ?? (quick ? 15 : n <= 20_000 ? 120 : n <= 50_000 ? 80 : 60);
  const docsRoot = values['write-docs'];
  if (docsRoot !== undefined) {
    if (values.only !== undefined || scenes.size < 7) usage('--write-docs takes a run of every scene, without --only');
    if (!existsSync(join(docsRoot, 'README.md'))) usage(`--write-docs: no README.md in ${docsRoot}`);
    if (values.chart !== undefined) usage('--write-docs draws its own chart (docs/performance.svg); leave out --chart');
    values.chart = join(docsRoot, PERFORMANCE_CHART);
  }
  if (values.chart !== undefined && !values.chart.endsWith('.svg')) {
    usage(`--chart takes a file name ending in .svg (got ${values.chart})`);
  }
  const seed = values.seed === undefined ? DEFAULT_SEED : numbers(values.seed, 'seed')[0];
  const select = selector(values.only);
  const depths = numbers(values.depths ?? (quick ? '7,8,9' : '6,7,8,9,10'), 'depths');
  const log = (line: string) => process.stderr.write(`${line}\n`);
  if (values['no-tune'] && values.retune) usage('--no-tune and --retune exclude each other');
  const tune: TuneOptions = {
    mode: values['no-tune'] ? 'off' : values.retune ? 'sweep' : 'cached',
    file: TUNED_FILE,
    warmup: quick ? 2 : 3,
    frames: quick ? 5 : 8,
    log,
  };
  if (scenes.has('bounce') || scenes.has('storm')) await initRapier();
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    log('note: run with --expose-gc (npm run bench does) for collections between runs and frames');
  }

  const started = performance.now();
  const timed = <T>(what: string, work: () => T): T => {
    const t0 = performance.now();
    const result = work();
    log(`${what} took ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return result;
  };
  const bounce = !scenes.has('bounce')
    ? []
    : timed('bounce tables', () =>
        runBounce({ modes, ns: bounceNs, warmup, framesFor, seed, runs, select, log, tune }),
      );
  const sweep =
    !scenes.has('bounce') || values['no-sweep']
      ? null
      : timed('sweep', () =>
          runSweep({
            modes,
            ns: bounceNs,
            depths,
            warmup: quick ? 3 : 5,
            frames: quick ? 10 : 20,
            seed,
            runs,
            select,
            log,
          }),
        );
  // The ECS face against the bare core, up to 50k: bitECS entity churn for the pair entities dominates beyond.
  const ecsNs = bounceNs.filter((n) => n <= 50_000);
  const ecs =
    !scenes.has('bounce') || values['no-ecs']
      ? []
      : timed('ECS table', () => runEcsBench({ ns: ecsNs, modes, warmup, frames: framesFor, seed, runs, select, log }));
  const storm = !scenes.has('storm')
    ? null
    : timed('storm', () => runStorm({ ns: stormNs, warmup, framesFor: stormFramesFor, seed, runs, select, log, tune }));
  const bullets = !scenes.has('bullets')
    ? null
    : timed('bullets', () => runBullets({ ns: stormNs, warmup, framesFor: bulletFramesFor, seed, runs, select, log }));
  const shapes = !scenes.has('shapes')
    ? null
    : timed('shapes', () => runShapes({ ns: stormNs, warmup, framesFor: bulletFramesFor, seed, runs, select, log }));
  const effects = !scenes.has('effects')
    ? null
    : timed('effects', () =>
        runEffects({ ns: effectsNs, warmup: effectsWarmup, framesFor: effectsFramesFor, seed, runs, select, log }),
      );
  const tilemap = !scenes.has('tilemap')
    ? null
    : timed('tilemap', () =>
        runTilemap({
          seed,
          runs,
          frames: fixedFrames ?? (quick ? 15 : 200),
          warmup: quick ? 5 : 20,
          script: process.argv[1] ?? null,
          log,
        }),
      );
  // Each frame of the peer that rolls back plays nine: fewer frames, and a warm-up that lets
  // the first sparks die and their ids be handed out again.
  const rollbackWarmup = values.warmup === undefined ? (quick ? 10 : 130) : warmup;
  const rollback = !scenes.has('rollback')
    ? null
    : timed('rollback', () =>
        runRollback({
          ns: rollbackNs,
          warmup: rollbackWarmup,
          framesFor: () => fixedFrames ?? (quick ? 10 : 40),
          seed,
          runs,
          select,
          log,
        }),
      );
  log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (
    bounce.length === 0 &&
    sweep === null &&
    ecs.length === 0 &&
    storm === null &&
    bullets === null &&
    shapes === null &&
    effects === null &&
    tilemap === null &&
    rollback === null
  ) {
    usage(`--only matched no contender of the scenes run (${values.only})`);
  }

  const md = values.markdown || docsRoot !== undefined;
  const context = { warmup, seed };
  const effectsContext = { warmup: effectsWarmup, seed };
  const bounceText = bounceSection(bounce, md, context);
  const scenesText = [
    md && bounceText !== '' ? `### Bouncing boxes\n\n${bounceText}` : bounceText,
    sweep === null ? '' : sweepSection(sweep, md),
    ecsSection(ecs, md),
    stormSection(storm, md, context),
    bulletsSection(bullets, md, context),
    shapesSection(shapes, md, context),
    effectsSection(effects, md, effectsContext),
    tilemapSection(tilemap, md),
    rollbackSection(rollback, md, { warmup: rollbackWarmup, seed }),
  ];
  const tuned = [...bounce.flatMap((t) => t.tuned), ...(storm?.tuned ?? [])];
  const sections = [
    md ? `## Performance\n\n${machineLine(runs)}\n\n${cellLegend(runs)}` : machineLine(runs),
    ...scenesText,
    tunedSection(tuned, md),
  ];
  if (docsRoot === undefined) {
    console.log(
      sections
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .join('\n\n'),
    );
  }

  let svg: string | null = null;
  if (values.chart !== undefined) {
    const panels = [
      ...bounce.map((t) => panelOf(`Bouncing boxes: ${MODE_TITLE[t.mode].toLowerCase()}`, t, 'ours')),
      storm === null ? null : panelOf('Particle storm', storm, 'ecs-off'),
      effects === null ? null : panelOf('Particle effects', effects, 'ecs-off'),
      bullets === null ? null : panelOf('Swept bullets', bullets),
      shapes === null ? null : panelOf('Circles and contacts', shapes),
    ].filter((p): p is ChartPanel => p !== null);
    if (panels.length === 0) {
      log(`no chart: no scene table was run at two item counts or more (${values.chart} not written)`);
    } else {
      svg = chartSvg({
        title: 'ms per frame against the item count, log scales: the median of the runs, a bar over their range',
        subtitle: machineLine(runs),
        panels,
      });
      mkdirSync(dirname(values.chart), { recursive: true });
      writeFileSync(values.chart, svg);
      log(
        `chart written to ${values.chart} (${panels.length} panel${panels.length === 1 ? '' : 's'}, ${svg.length} bytes)`,
      );
    }
  }

  const bad = [
    ...bounceMismatches(bounce),
    ...tunedMismatches([...bounce.flatMap((t) => t.tuned), ...(storm?.tuned ?? [])]),
    ...(sweep === null ? [] : sweepMismatches(sweep)),
    ...ecsMismatches(ecs),
    ...stormMismatches(storm),
    ...bulletsMismatches(bullets),
    ...shapesMismatches(shapes),
    ...effectsMismatches(effects),
    ...tilemapMismatches(tilemap),
    ...rollbackMismatches(rollback),
  ];
  if (bad.length > 0) {
    console.error(`\nCHECKSUM MISMATCH (${bad.length}):\n  ${bad.join('\n  ')}`);
    process.exitCode = 1;
  }

  if (docsRoot !== undefined) {
    if (bad.length > 0) {
      log(`docs not written: pair sets differ (${bad.length})`);
      return;
    }
    const machine = machineLine(runs);
    const peers = ['flatbush', 'rbush', 'planck', 'rapier', 'detect-collisions', 'quadtree-ts'];
    const byMode = (mode: Mode) => bounce.find((t) => t.mode === mode);
    const specs: (HeadlineSpec | null)[] = [
      ...(['10', 'all'] as Mode[]).map((mode) => {
        const table = byMode(mode);
        return table === undefined
          ? null
          : {
              title: mode === '10' ? 'boxes, a tenth moving' : 'boxes, all moving',
              table,
              ours: 'ours',
              grid: 'grid',
              peers,
              tunedWhere: bounceWhere(MODE_TITLE[mode]),
            };
      }),
      storm === null
        ? null
        : {
            title: 'particle storm, ECS',
            table: storm,
            ours: 'ecs-off',
            grid: 'grid',
            peers: ['rapier'],
            tunedWhere: (n) => `storm, ${label(n)}`,
          },
      effects === null
        ? null
        : { title: 'particle effects, core', table: effects, ours: 'core', grid: 'grid', peers: [] },
    ];
    const headlines = headlinesOf(
      specs.filter((x): x is HeadlineSpec => x !== null),
      tuned,
    );
    const page = performancePage({
      machine,
      runs,
      sections: scenesText,
      tuned: tunedSection(tuned, true),
      chart: svg !== null,
      bundle: bundleSection(bundleSizes(docsRoot)),
    });
    writeDocs(docsRoot, page, svg, readmeBlock(machine, headlines));
    log(
      `docs written: ${join(docsRoot, 'docs/performance.md')}, ${join(docsRoot, PERFORMANCE_CHART)}, ${join(docsRoot, 'README.md')}`,
    );
  }
}

/** `--only`: a contender runs when its key or name contains one of the words. */
function selector(only: string | undefined): Select {
  const words = only
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s.length > 0);
  if (words === undefined || words.length === 0) return () => true;
  return (spec) => words.some((w) => spec.key.toLowerCase().includes(w) || spec.name.toLowerCase().includes(w));
}

function numbers(text: string, flag: string): number[] {
  const list = text.split(',').map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((v) => !Number.isInteger(v) || v < 0))
    usage(`--${flag} takes non-negative integers (got ${text})`);
  return list;
}

function positive(text: string, flag: string): number {
  const v = Number(text);
  if (!Number.isInteger(v) || v < 1) usage(`--${flag} takes a positive integer (got ${text})`);
  return v;
}

function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

await main();
