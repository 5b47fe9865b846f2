// The pdex explorer page: one WebSocket to pdex serve (docs/explorer.md). Frames arrive as quantized
// fields and are drawn here; every control sends a JSON command and the server answers it.
import { makeRenderer, drawColorbar } from './render.js';
import { Plots } from './plots.js';

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get('token') || '';
const renderer = makeRenderer($('field'));
const plots = new Plots($('plots'));

let ws = null, nextId = 1, describe = null, state = null, frame = null;
const waiting = new Map();           // command id -> resolve(reply)
const frameWaiters = [];             // {version, resolve}: resolved by the first frame of that version
const fps = { count: 0, since: performance.now(), value: 0 };
let framesReceived = 0;

// ---- connection -----------------------------------------------------------------------------------
function connect() {
  ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws${token ? '?token=' + token : ''}`);
  ws.binaryType = 'arraybuffer';
  ws.onmessage = (e) => (typeof e.data === 'string' ? onText(JSON.parse(e.data)) : onFrame(e.data));
  ws.onclose = () => {
    message('disconnected from pdex serve; reconnecting…', 'error');
    setTimeout(connect, 1000);
  };
  ws.onopen = () => message('connected', 'info');
}

// Sends a command; the promise resolves with the server's reply.
function send(cmd) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ ...cmd, id }));
    else resolve({ ok: false, error: 'not connected' });
  });
}

function onText(m) {
  if (m.id !== undefined && waiting.has(m.id)) {
    waiting.get(m.id)(m);
    waiting.delete(m.id);
  }
  if (m.ok === false) message(m.error, 'error');
  if (m.describe) setDescribe(m.describe);
  if (m.state) setState(m.state);
  if (m.type === 'error') message(m.error, 'error');
}

function onFrame(buffer) {
  const n = new DataView(buffer).getUint32(0, true);
  const head = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, n)));
  const cells = head.nx * head.ny, start = Math.ceil((4 + n) / 4) * 4;
  head.data = head.fields.map((_, k) => new Uint16Array(buffer, start + 2 * k * cells, cells));
  frame = head;
  ++framesReceived;
  ++fps.count;
  plots.add(head);
  draw();
  ws.send('{"type":"drawn"}');  // the server sends the next frame only now
  for (const w of frameWaiters.splice(0)) {
    if (frame.version >= w.version) w.resolve();
    else frameWaiters.push(w);
  }
}

// ---- drawing --------------------------------------------------------------------------------------
function currentField() {
  if (!frame) return -1;
  const k = frame.fields.findIndex((f) => f.name === $('field-select').value);
  return k < 0 ? 0 : k;
}

function draw() {
  const k = currentField();
  if (k < 0) return;
  const f = frame.fields[k], canvas = $('field');
  if (canvas.width !== frame.nx || canvas.height !== frame.ny) {
    canvas.width = frame.nx;
    canvas.height = frame.ny;
    applyZoom();
  }
  let lo = f.min, hi = f.max;
  if ($('auto-range').checked) {
    $('range-min').value = f.min.toPrecision(5);
    $('range-max').value = f.max.toPrecision(5);
  } else {
    lo = parseFloat($('range-min').value);
    hi = parseFloat($('range-max').value);
  }
  renderer.draw(frame.nx, frame.ny, frame.data[k], f, lo, hi);
  $('bar-min').textContent = lo.toPrecision(4);
  $('bar-max').textContent = hi.toPrecision(4);
  const now = performance.now();
  if (now - fps.since > 1000) {
    fps.value = (fps.count * 1000) / (now - fps.since);
    fps.count = 0;
    fps.since = now;
    plots.draw();
  }
  $('status').textContent = `step ${frame.step}   t = ${frame.t.toPrecision(6)}   ` +
    `${Math.round(frame.steps_per_second)} steps/s   ${fps.value.toFixed(1)} frames/s`;
  $('solver').textContent = frame.solver_iterations !== undefined ? `linear solver: ${frame.solver_iterations.toFixed(1)} iterations per step` : '';
}

function applyZoom() {
  const canvas = $('field'), z = parseFloat($('zoom').value);
  const base = Math.max(1, Math.floor(512 / Math.max(canvas.width, canvas.height)));  // small grids fill ~512 px
  canvas.style.width = `${canvas.width * base * z}px`;
  canvas.style.height = `${canvas.height * base * z}px`;
  $('zoom-text').textContent = `${z}x`;
}

function setColormap() {
  const rgb = describe.colormaps[$('cmap-select').value];
  renderer.setColormap(rgb);
  drawColorbar($('bar'), rgb);
  draw();
}

// ---- controls built from the model's description ----------------------------------------------------
function options(select, values, chosen) {
  select.replaceChildren(...values.map((v) => new Option(v, v, false, v === chosen)));
}

function setDescribe(d) {
  const first = !describe;
  describe = d;
  const size = d.nz > 1 ? `${d.nx}x${d.ny}x${d.nz}` : `${d.nx}x${d.ny}`;
  $('title').textContent = `${d.model}: ${d.title}  (${size}, ${d.backend}, ${d.precision})`;
  $('plane-row').hidden = !(d.nz > 1);
  $('plane').max = d.nz - 1;
  const names = d.fields.map((f) => f.name);
  options($('field-select'), names, first ? names[0] : $('field-select').value);
  options($('brush-field'), d.fields.filter((f) => f.settable).map((f) => f.name), $('brush-field').value);
  if (first) {
    options($('cmap-select'), Object.keys(d.colormaps), d.colormap);
    if (Array.isArray(d.range)) {
      $('auto-range').checked = false;
      [$('range-min').value, $('range-max').value] = d.range;
      rangeInputs();
    }
  }
  options($('scheme'), d.schemes, d.scheme);
  $('dt').value = d.dt;
  buildParams(d.params);
  buildEquations(d.equations);
  setColormap();
}

function setState(s) {
  state = s;
  $('play').textContent = s.playing ? 'Pause' : 'Play';
  if (document.activeElement !== $('spf')) $('spf').value = s.steps_per_frame;
  if (s.plane >= 0) {
    if (document.activeElement !== $('plane')) $('plane').value = s.plane;
    $('plane-text').textContent = `${s.plane} of ${describe ? describe.nz : '?'}`;
  }
}

// Slider moves are sent at most once per animation frame: the newest value wins.
const pendingSets = new Map();
function setSoon(key, value) {
  if (!pendingSets.size) requestAnimationFrame(flushSets);
  pendingSets.set(key, value);
}
function flushSets() {
  const changes = Object.fromEntries(pendingSets);
  pendingSets.clear();
  send({ type: 'set', changes });
}

function buildParams(params) {
  const box = $('params');
  if (box.contains(document.activeElement)) return;  // not while the researcher is typing in it
  box.replaceChildren();
  for (const p of params) {
    const row = document.createElement('div');
    row.className = 'param';
    const label = document.createElement('label');
    label.textContent = p.name;
    label.title = `${p.meaning || ''}${p.units && p.units !== '1' ? ' [' + p.units + ']' : ''}`;
    row.append(label);
    if (p.varies) {  // a slider scales the whole field; a number replaces it by a constant
      const scale = Object.assign(document.createElement('input'), { type: 'range', min: 0, max: 2, step: 0.01, value: p.scale ?? 1 });
      scale.dataset.param = p.name;
      scale.title = `× ${scale.value}: varies per cell, ${p.value.min.toPrecision(3)} … ${p.value.max.toPrecision(3)}`;
      scale.oninput = () => setSoon(`model.params.${p.name}.scale`, parseFloat(scale.value));
      const num = numberBox(p.value.mean, (v) => send({ type: 'set', key: `model.params.${p.name}`, value: v }));
      num.title = 'the mean; a number typed here replaces the field by that constant';
      row.append(scale, num);
    } else if (typeof p.value === 'number') {
      const lo = Math.min(p.min, p.value), hi = Math.max(p.max, p.value);
      const slider = Object.assign(document.createElement('input'), { type: 'range', min: lo, max: hi, step: (hi - lo) / 1000 || 'any', value: p.value });
      slider.dataset.param = p.name;
      const num = numberBox(p.value, (v) => send({ type: 'set', key: `model.params.${p.name}`, value: v }));
      slider.oninput = () => {
        num.value = slider.value;
        setSoon(`model.params.${p.name}`, parseFloat(slider.value));
      };
      row.append(slider, num);
    }
    if (p.meaning) {
      const m = document.createElement('div');
      m.className = 'meaning';
      m.textContent = p.meaning;
      row.append(m);
    }
    box.append(row);
  }
}

function numberBox(value, onChange) {
  const num = Object.assign(document.createElement('input'), { type: 'number', step: 'any', value });
  num.onchange = () => Number.isFinite(parseFloat(num.value)) && onChange(parseFloat(num.value));
  return num;
}

function buildEquations(eqs) {
  $('equations-box').hidden = !eqs;
  if (!eqs || $('equations-box').contains(document.activeElement)) return;
  $('equations').replaceChildren(...Object.entries(eqs).map(([species, text]) => {
    const label = document.createElement('label');
    label.textContent = `d${species}/dt =`;
    const area = Object.assign(document.createElement('textarea'), { rows: 2, value: text });
    area.dataset.species = species;
    const div = document.createElement('div');
    div.append(label, area);
    return div;
  }));
}

// ---- the brush --------------------------------------------------------------------------------------
let painting = false, lastPaint = 0;
function paintAt(e) {
  const canvas = $('field'), r = canvas.getBoundingClientRect();
  const x = ((e.clientX - r.left) / r.width) * canvas.width, y = (1 - (e.clientY - r.top) / r.height) * canvas.height;
  const now = performance.now();
  if (now - lastPaint < 16) return;
  lastPaint = now;
  send({ type: 'paint', field: $('brush-field').value, x, y, radius: parseFloat($('brush-radius').value),
         value: parseFloat($('brush-value').value), mode: $('brush-mode').value });
}

// ---- messages ---------------------------------------------------------------------------------------
function message(text, kind) {
  const div = document.createElement('div');
  div.className = kind;
  div.textContent = text;
  $('messages').prepend(div);
  while ($('messages').childElementCount > 8) $('messages').lastChild.remove();
}

async function saved(what) {
  const cmd = { type: 'save', what, field: $('field-select').value, colormap: $('cmap-select').value };
  if (!$('auto-range').checked) cmd.range = [parseFloat($('range-min').value), parseFloat($('range-max').value)];
  const r = await send(cmd);
  if (r.ok) message(`saved ${r.files.join(', ')}`, 'info');
  return r;
}

function rangeInputs() {
  $('range-min').disabled = $('range-max').disabled = $('auto-range').checked;
  draw();
}

function boundaryToml(v) {
  if (v !== 'dirichlet') return v;
  const side = '{ kind = "dirichlet", value = 0.0 }';
  const z = describe.nz > 1 ? `, front = ${side}, back = ${side}` : '';
  return `{ left = ${side}, right = ${side}, bottom = ${side}, top = ${side}${z} }`;
}

function wire() {
  $('play').onclick = () => send({ type: state && state.playing ? 'pause' : 'play' });
  $('step').onclick = () => send({ type: 'step' });
  $('reset').onclick = () => { plots.clear(); send({ type: 'reset' }); };
  $('spf').onchange = () => send({ type: 'steps_per_frame', value: parseInt($('spf').value, 10) });
  $('plane').oninput = () => send({ type: 'plane', value: parseInt($('plane').value, 10) });
  $('field-select').onchange = draw;
  $('cmap-select').onchange = setColormap;
  $('auto-range').onchange = rangeInputs;
  $('range-min').onchange = $('range-max').onchange = draw;
  $('zoom').oninput = applyZoom;
  $('brush-on').onchange = () => $('field').classList.toggle('brush', $('brush-on').checked);
  const canvas = $('field');
  canvas.onpointerdown = (e) => {
    if (!$('brush-on').checked) return;
    painting = true;
    canvas.setPointerCapture(e.pointerId);
    lastPaint = 0;
    paintAt(e);
  };
  canvas.onpointermove = (e) => painting && paintAt(e);
  canvas.onpointerup = canvas.onpointercancel = () => { painting = false; };
  $('apply-scheme').onclick = () => {
    const changes = { 'time.scheme': $('scheme').value, 'time.dt': parseFloat($('dt').value) };
    const b = $('boundary').value;
    if (b) return send({ type: 'set', changes }).then(() => send({ type: 'set', key: 'grid.boundary', toml: boundaryToml(b) }));
    return send({ type: 'set', changes });
  };
  $('apply-equations').onclick = () => {
    const changes = {};
    for (const area of $('equations').querySelectorAll('textarea')) changes[`model.equations.${area.dataset.species}`] = area.value;
    send({ type: 'set', changes }).then((r) => r.ok && message('compiled; the run goes on from the current state', 'info'));
  };
  $('apply-key').onclick = () => send({ type: 'set', key: $('any-key').value, toml: $('any-value').value });
  $('save-png').onclick = () => saved('png');
  $('save-npy').onclick = () => saved('npy');
  $('save-config').onclick = () => saved('config');
}

// ---- what tests and benchmarks read (tests/browser, bench/serve_bench.py) ---------------------------
window.pdex = {
  send,
  get describe() { return describe; },
  get frame() { return frame && { step: frame.step, t: frame.t, version: frame.version, fields: frame.fields }; },
  get framesReceived() { return framesReceived; },
  get renderer() { return renderer.kind; },
  // Mean and standard deviation of the drawn picture's grey level.
  canvasStats() {
    const c = $('field'), copy = Object.assign(document.createElement('canvas'), { width: c.width, height: c.height });
    const ctx = copy.getContext('2d');
    ctx.drawImage(c, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let s = 0, s2 = 0;
    const n = px.length / 4;
    for (let k = 0; k < px.length; k += 4) {
      const g = (px[k] + px[k + 1] + px[k + 2]) / 3;
      s += g; s2 += g * g;
    }
    return { mean: s / n, std: Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2)), signature: c.toDataURL().length + ':' + s };
  },
  // Milliseconds from sending a change to drawing the first frame that has it.
  async latency(key, value) {
    const t0 = performance.now();
    const r = await send({ type: 'set', key, value });
    if (!r.ok) throw new Error(r.error);
    if (!frame || frame.version < r.version) await new Promise((resolve) => frameWaiters.push({ version: r.version, resolve }));
    return performance.now() - t0;
  },
};

wire();
connect();
