// Opens crowd's film shots with OpenUSD itself and checks them against the film CSV written by
// the same run: a reader we did not write, so the format is right for USD, not only for our
// own test parser (tests/support/usda_test_reader.h).
//
//   node -r ./shim.js check_shots.js CROWD SCENARIO... [--steps N]
//
// For every scenario: `crowd run SCENARIO --fps 24 --steps N --out shot.usda --out film.csv`,
// then, through OpenUSD (UsdStage.Open, and the layer as USD exports it again):
//   - the stage opens with no error;
//   - /Crowd is an Xform, /Crowd/Agents a PointInstancer whose prototypes are Xforms holding a
//     Capsule, under an `over`; start and end time code, time codes and frames per second;
//   - positions and velocities at the first, middle and last frames equal the film CSV's rows
//     (every shown agent, within 1e-4), invisibleIds are the agents without a row, the
//     orientations are unit rotations about +y by the CSV's heading, and the per-instance
//     primvars crowd:gait, crowd:cyclePhase and crowd:playbackRate (interpolation "vertex")
//     hold the CSV's gait, cycle_phase and playback_rate.
// Prints one line per shot; exits non-zero on the first failure, saying what differs.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const external = path.join(__dirname, 'node_modules', 'three-usdz-loader', 'external');
const FPS = 24;

function fail(message) {
  console.error('FAIL: ' + message);
  process.exit(1);
}

function expect(condition, message) {
  if (!condition) fail(message);
}

const GAITS = ['idle', 'walk', 'run', 'turn', 'wait'];

/// The film CSV's rows: frame -> agent -> [x, y, z, vx, vz, heading, gait, cycle, rate], the
/// gait as its number.
function readFilmCsv(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const header = 'frame,time,agent,type,x,y,z,vx,vz,heading,gait,cycle_phase,playback_rate';
  expect(lines[0] === header, `${file}: header ${lines[0]}`);
  const frames = new Map();
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    const frame = Number(f[0]);
    if (!frames.has(frame)) frames.set(frame, new Map());
    const gait = GAITS.indexOf(f[10]);
    expect(gait >= 0, `${file}: unknown gait ${f[10]}`);
    frames.get(frame).set(Number(f[2]), [...f.slice(4, 10).map(Number), gait, Number(f[11]),
                                         Number(f[12])]);
  }
  return frames;
}

/// `TYPE name.timeSamples = { code: [values], ... }` of USD's own export of the layer:
/// code -> the numbers of the array, tuples flattened.
function timeSamples(exported, name) {
  const start = exported.indexOf(` ${name}.timeSamples = {`);
  if (start < 0) return null;
  const end = exported.indexOf('\n        }', start);
  const samples = new Map();
  const body = exported.slice(exported.indexOf('{', start) + 1, end);
  for (const m of body.matchAll(/(-?\d+(?:\.\d+)?): \[([^\]]*)\]/g)) {
    const numbers = m[2].match(/-?\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi) || [];
    samples.set(Number(m[1]), numbers.map(Number));
  }
  return samples;
}

/// A held attribute's value at `code`: its plain value, or its last sample at or before code.
function heldValue(exported, name, code) {
  const samples = timeSamples(exported, name);
  if (samples && samples.size > 0) {
    let value = null;
    for (const [k, v] of [...samples.entries()].sort((a, b) => a[0] - b[0]))
      if (k <= code || value === null) value = v;
    return value;
  }
  const m = exported.match(new RegExp(` ${name} = \\[([^\\]]*)\\]`));
  expect(m, `${name} has neither samples nor a value`);
  return (m[1].match(/-?\d+/g) || []).map(Number);
}

function checkShot(M, errors, crowd, scenario, steps, dir) {
  const name = path.basename(scenario, '.json');
  const shot = path.join(dir, `${name}.usda`);
  const csv = path.join(dir, `${name}.csv`);
  execFileSync(crowd, ['run', scenario, '--backend', 'cpu', '--fps', String(FPS), '--steps',
                       String(steps), '--quiet', '--out', shot, '--out', csv]);
  const film = readFilmCsv(csv);
  const inFs = `/${name}.usda`;
  M.FS_createDataFile('/', `${name}.usda`, fs.readFileSync(shot), true, true, true);
  errors.length = 0;
  const stage = M.UsdStage.Open(inFs);
  // "Coding Error" lines about UsdVol plugins come even for an empty layer.
  const real = errors.filter((e) => !/UsdVol/.test(e) && e.trim() !== '');
  expect(stage && real.length === 0, `${name}: the stage does not open cleanly: ${real.join(' | ')}`);

  const firstFrame = Math.min(...film.keys());
  const lastFrame = Math.max(...film.keys());
  // crowd run numbers film frames from 1001, the film convention.
  expect(firstFrame === 1001, `${name}: the film CSV starts at frame ${firstFrame}`);
  expect(stage.GetStartTimeCode() === firstFrame,
         `${name}: start time code ${stage.GetStartTimeCode()}, the film's first frame is ${firstFrame}`);
  expect(stage.GetEndTimeCode() === lastFrame,
         `${name}: end time code ${stage.GetEndTimeCode()}, the film's last frame is ${lastFrame}`);
  expect(stage.GetTimeCodesPerSecond() === FPS, `${name}: ${stage.GetTimeCodesPerSecond()} tcps`);
  const crowdPrim = stage.GetPrimAtPath('/Crowd');
  const instancer = stage.GetPrimAtPath('/Crowd/Agents');
  expect(crowdPrim && crowdPrim.GetTypeName() === 'Xform', `${name}: /Crowd is not an Xform`);
  expect(instancer && instancer.GetTypeName() === 'PointInstancer',
         `${name}: /Crowd/Agents is not a PointInstancer`);
  const properties = instancer.GetPropertyNames();
  for (const p of ['positions', 'orientations', 'velocities', 'angularVelocities', 'ids',
                   'protoIndices', 'invisibleIds', 'extent', 'prototypes'])
    expect(properties.includes(p), `${name}: the instancer has no ${p}`);

  const exported = stage.GetRootLayer().ExportToString();
  expect(/framesPerSecond = 24\b/.test(exported), `${name}: framesPerSecond is not 24`);
  expect(/over "Prototypes"/.test(exported), `${name}: the prototypes are not under an over`);
  const targets = [...exported.matchAll(/<(\/Crowd\/Agents\/Prototypes\/[^>]+)>/g)].map((m) => m[1]);
  expect(targets.length > 0, `${name}: no prototype targets`);
  for (const target of targets) {
    const prototype = stage.GetPrimAtPath(target);
    expect(prototype && prototype.GetTypeName() === 'Xform', `${name}: ${target} is not an Xform`);
    const body = stage.GetPrimAtPath(target + '/body');
    expect(body && body.GetTypeName() === 'Capsule', `${name}: ${target}/body is not a Capsule`);
  }

  const positions = timeSamples(exported, 'positions');
  const velocities = timeSamples(exported, 'velocities');
  const orientations = timeSamples(exported, 'orientations');
  const gaits = timeSamples(exported, 'primvars:crowd:gait');
  const cycles = timeSamples(exported, 'primvars:crowd:cyclePhase');
  const rates = timeSamples(exported, 'primvars:crowd:playbackRate');
  for (const property of ['scales', 'primvars:displayColor']) {
    expect(properties.includes(property), `${name}: no ${property}`);
  }
  for (const primvar of ['gait', 'cyclePhase', 'playbackRate', 'variation', 'variationSeed']) {
    expect(properties.includes(`primvars:crowd:${primvar}`), `${name}: no primvar crowd:${primvar}`);
    // Its metadata block follows the declaration, or the value when the value is held.
    const match = new RegExp(`primvars:crowd:${primvar}( \\(| = )`).exec(exported);
    const at = match ? match.index : -1;
    const block = at < 0 ? '' : exported.slice(at, exported.indexOf('\n        )', at));
    expect(block.includes('interpolation = "vertex"'),
           `${name}: crowd:${primvar} is not per instance ("vertex")`);
  }
  expect(positions && positions.size === lastFrame - firstFrame + 1, `${name}: ${positions && positions.size} position samples`);
  let compared = 0;
  for (const frame of [firstFrame, Math.floor((firstFrame + lastFrame) / 2), lastFrame]) {
    const rows = film.get(frame) || new Map();
    const p = positions.get(frame);
    const v = velocities.get(frame);
    const q = orientations.get(frame);
    const hidden = new Set(heldValue(exported, 'invisibleIds', frame));
    const ids = heldValue(exported, 'ids', frame);
    expect(p.length === 3 * ids.length && v.length === 3 * ids.length && q.length === 4 * ids.length,
           `${name} frame ${frame}: array lengths ${p.length}, ${v.length}, ${q.length} for ${ids.length} ids`);
    for (let k = 0; k < ids.length; ++k) {
      const agent = ids[k];
      const row = rows.get(agent);
      expect(hidden.has(agent) === (row === undefined),
             `${name} frame ${frame}: agent ${agent} ${row ? 'in the CSV but invisible' : 'visible but not in the CSV'}`);
      const norm = q[4 * k] ** 2 + q[4 * k + 2] ** 2;
      expect(q[4 * k + 1] === 0 && q[4 * k + 3] === 0 && Math.abs(norm - 1) < 2e-3,
             `${name} frame ${frame} agent ${agent}: not a unit rotation about +y`);
      if (!row) continue;
      const got = [p[3 * k], p[3 * k + 1], p[3 * k + 2], v[3 * k], v[3 * k + 2]];
      for (let c = 0; c < 5; ++c)
        expect(Math.abs(got[c] - row[c]) <= 1e-4 * Math.max(1, Math.abs(row[c])),
               `${name} frame ${frame} agent ${agent}: ${got} in USD, ${row} in the CSV`);
      // The heading of the rotation (half precision in quath) against the CSV's, in degrees.
      const heading = (2 * Math.atan2(q[4 * k + 2], q[4 * k]) * 180) / Math.PI;
      const turn = ((heading - row[5] + 540) % 360) - 180;
      expect(Math.abs(turn) < 0.5, `${name} frame ${frame} agent ${agent}: heading ${heading} in USD, ${row[5]} in the CSV`);
      const locomotion = [gaits.get(frame)[k], cycles.get(frame)[k], rates.get(frame)[k]];
      expect(locomotion[0] === row[6] && Math.abs(locomotion[1] - row[7]) <= 1e-5 &&
               Math.abs(locomotion[2] - row[8]) <= 1e-5 * Math.max(1, row[8]),
             `${name} frame ${frame} agent ${agent}: locomotion ${locomotion} in USD, ${row.slice(6)} in the CSV`);
      ++compared;
    }
  }
  expect(compared > 0, `${name}: no agent compared`);
  console.log(`ok ${name}: frames 0..${lastFrame}, ${targets.length} prototype(s), ${compared} ` +
              'agent states equal to the film CSV');
}

function main() {
  const args = process.argv.slice(2);
  let steps = 60;
  const stepsAt = args.indexOf('--steps');
  if (stepsAt >= 0) {
    steps = Number(args[stepsAt + 1]);
    args.splice(stepsAt, 2);
  }
  const [crowd, ...scenarios] = args;
  expect(crowd && scenarios.length > 0, 'usage: check_shots.js CROWD SCENARIO... [--steps N]');
  if (!fs.existsSync(external))
    fail(`${external} is missing: run 'npm ci --prefix ${__dirname}' (.ci/setup does)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crowd-openusd-'));
  const errors = [];
  const data = fs.readFileSync(path.join(external, 'emHdBindings.data'));
  require(path.join(external, 'emHdBindings.js'))({
    wasmBinary: fs.readFileSync(path.join(external, 'emHdBindings.wasm')),
    getPreloadedPackage: () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    print: () => {},
    printErr: (text) => errors.push(text),
  }).then((M) => {
    try {
      for (const scenario of scenarios) checkShot(M, errors, crowd, scenario, steps, dir);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    process.exit(0);
  }, (error) => fail(`OpenUSD did not load: ${error}`));
}

main();
