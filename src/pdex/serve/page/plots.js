// Min, max and mean of every field over simulated time, one strip per field with its own scale, and a
// strip of the linear solver's iterations per step where the scheme is implicit.

const colors = { mean: '#1565c0', min: '#9e9e9e', max: '#424242' };
const maxPoints = 4000;
const solverStrip = 'solver iterations per step';

export class Plots {
  constructor(canvas) { this.canvas = canvas; this.clear(); }
  clear() { this.series = {}; this.last = -Infinity; }
  add(head) {
    if (head.t < this.last) this.clear();  // a reset
    this.last = head.t;
    for (const f of head.fields) this.push(f.name, head.t, f.min, f.max, f.mean);
    if (head.solver_iterations !== undefined) {
      const n = head.solver_iterations;
      this.push(solverStrip, head.t, n, n, n);
    }
  }
  push(name, t, min, max, mean) {
    const h = (this.series[name] ??= { t: [], min: [], max: [], mean: [] });
    h.t.push(t); h.min.push(min); h.max.push(max); h.mean.push(mean);
    // Past maxPoints every other point goes: the whole span is kept at half the resolution.
    if (h.t.length > maxPoints) for (const key of Object.keys(h)) h[key] = h[key].filter((_, k) => k % 2 === 0);
  }
  draw() {
    const ctx = this.canvas.getContext('2d'), W = this.canvas.width, H = this.canvas.height;
    ctx.clearRect(0, 0, W, H);
    const names = Object.keys(this.series).filter((n) => this.series[n].t.length > 1);
    if (!names.length) return;
    const t0 = Math.min(...names.map((n) => this.series[n].t[0])), t1 = Math.max(t0 + 1e-300, this.last);
    const strip = H / names.length;
    ctx.font = '11px sans-serif';
    names.forEach((name, s) => {
      const h = this.series[name], top = s * strip + 4, height = strip - 16;
      let lo = Math.min(...h.min.filter(Number.isFinite)), hi = Math.max(...h.max.filter(Number.isFinite));
      if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
      const X = (t) => 40 + (W - 50) * (t - t0) / (t1 - t0), Y = (v) => top + height * (1 - (v - lo) / (hi - lo));
      for (const key of ['min', 'max', 'mean']) {
        ctx.strokeStyle = colors[key]; ctx.lineWidth = key === 'mean' ? 1.5 : 0.8;
        ctx.beginPath();
        h[key].forEach((v, k) => (k ? ctx.lineTo(X(h.t[k]), Y(v)) : ctx.moveTo(X(h.t[k]), Y(v))));
        ctx.stroke();
      }
      ctx.fillStyle = '#222';
      ctx.fillText(`${name}  ${hi.toPrecision(4)}`, 2, top + 9);
      ctx.fillText(lo.toPrecision(4), 2, top + height);
    });
    ctx.fillText(`t = ${t0.toPrecision(4)} … ${this.last.toPrecision(4)}`, W - 160, H - 2);
  }
}
