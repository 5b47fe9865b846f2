// Min, max and mean of every field over time, one strip per field, each with its own scale.

const colors = { mean: '#1565c0', min: '#9e9e9e', max: '#424242' };
const maxPoints = 4000;

export class Plots {
  constructor(canvas) { this.canvas = canvas; this.clear(); }
  clear() { this.t = []; this.fields = {}; }
  add(head) {
    if (this.t.length && head.t < this.t[this.t.length - 1]) this.clear();  // a reset
    this.t.push(head.t);
    for (const f of head.fields) {
      const h = this.fields[f.name] ??= { min: [], max: [], mean: [] };
      h.min.push(f.min); h.max.push(f.max); h.mean.push(f.mean);
    }
    if (this.t.length > maxPoints) this.thin();
  }
  // Every other point goes: the history keeps its whole span at half the resolution.
  thin() {
    const keep = (a) => a.filter((_, k) => k % 2 === 0);
    this.t = keep(this.t);
    for (const h of Object.values(this.fields)) for (const key of ['min', 'max', 'mean']) h[key] = keep(h[key]);
  }
  draw() {
    const ctx = this.canvas.getContext('2d'), W = this.canvas.width, H = this.canvas.height;
    ctx.clearRect(0, 0, W, H);
    const names = Object.keys(this.fields), n = this.t.length;
    if (!names.length || n < 2) return;
    const t0 = this.t[0], t1 = this.t[n - 1] > t0 ? this.t[n - 1] : t0 + 1, strip = H / names.length;
    ctx.font = '11px sans-serif';
    names.forEach((name, s) => {
      const h = this.fields[name], top = s * strip + 4, height = strip - 16;
      let lo = Math.min(...h.min.filter(Number.isFinite)), hi = Math.max(...h.max.filter(Number.isFinite));
      if (!(hi > lo)) { lo -= 0.5; hi += 0.5; }
      const X = (t) => 40 + (W - 50) * (t - t0) / (t1 - t0), Y = (v) => top + height * (1 - (v - lo) / (hi - lo));
      for (const key of ['min', 'max', 'mean']) {
        ctx.strokeStyle = colors[key]; ctx.lineWidth = key === 'mean' ? 1.5 : 0.8;
        ctx.beginPath();
        h[key].forEach((v, k) => (k ? ctx.lineTo(X(this.t[k]), Y(v)) : ctx.moveTo(X(this.t[k]), Y(v))));
        ctx.stroke();
      }
      ctx.fillStyle = '#222';
      ctx.fillText(`${name}  ${hi.toPrecision(4)}`, 2, top + 9);
      ctx.fillText(lo.toPrecision(4), 2, top + height);
    });
    ctx.fillText(`t = ${t0.toPrecision(4)} … ${this.t[n - 1].toPrecision(4)}`, W - 160, H - 2);
  }
}
