// Draws a quantized field (frame.hpp) through a colormap: on the browser's GPU with WebGL2, or with a
// 2D canvas where WebGL2 is missing. Row 0 of the data is y = 0, drawn at the bottom as pdex's PNGs are.

const vertexSource = `#version 300 es
in vec2 corner;
out vec2 uv;
void main() { uv = corner * 0.5 + 0.5; gl_Position = vec4(corner, 0.0, 1.0); }`;

const fragmentSource = `#version 300 es
precision highp float;
precision highp usampler2D;
uniform usampler2D field;
uniform sampler2D cmap;
uniform float fmin, fmax, lo, hi;
in vec2 uv;
out vec4 color;
void main() {
  ivec2 size = textureSize(field, 0);
  ivec2 p = min(ivec2(uv * vec2(size)), size - 1);
  uint q = texelFetch(field, p, 0).r;
  if (q == 65535u) { color = vec4(1.0, 0.0, 1.0, 1.0); return; }
  float v = fmin + float(q) / 65534.0 * (fmax - fmin);
  float t = hi > lo ? clamp((v - lo) / (hi - lo), 0.0, 1.0) : 0.0;
  color = vec4(texelFetch(cmap, ivec2(min(int(t * 256.0), 255), 0), 0).rgb, 1.0);
}`;

function compile(gl, type, source) {
  const s = gl.createShader(type);
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
  return s;
}

class GlRenderer {
  constructor(canvas, gl) {
    this.gl = gl;
    const prog = gl.createProgram();
    gl.attachShader(prog, compile(gl, gl.VERTEX_SHADER, vertexSource));
    gl.attachShader(prog, compile(gl, gl.FRAGMENT_SHADER, fragmentSource));
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(gl.getProgramInfoLog(prog));
    this.prog = prog;
    gl.useProgram(prog);
    gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    const loc = gl.getAttribLocation(prog, 'corner');
    gl.enableVertexAttribArray(loc);
    gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
    this.fieldTex = this.texture(0);
    this.cmapTex = this.texture(1);
    gl.uniform1i(gl.getUniformLocation(prog, 'field'), 0);
    gl.uniform1i(gl.getUniformLocation(prog, 'cmap'), 1);
    this.u = {};
    for (const n of ['fmin', 'fmax', 'lo', 'hi']) this.u[n] = gl.getUniformLocation(prog, n);
  }
  texture(unit) {
    const gl = this.gl, t = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return t;
  }
  setColormap(rgb) {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE1);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGB8, 256, 1, 0, gl.RGB, gl.UNSIGNED_BYTE, new Uint8Array(rgb));
  }
  draw(nx, ny, data, f, lo, hi) {
    const gl = this.gl;
    gl.viewport(0, 0, nx, ny);
    gl.activeTexture(gl.TEXTURE0);
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 2);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.R16UI, nx, ny, 0, gl.RED_INTEGER, gl.UNSIGNED_SHORT, data);
    gl.uniform1f(this.u.fmin, f.min);
    gl.uniform1f(this.u.fmax, f.max);
    gl.uniform1f(this.u.lo, lo);
    gl.uniform1f(this.u.hi, hi);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }
}

class CanvasRenderer {
  constructor(canvas) { this.ctx = canvas.getContext('2d'); this.rgb = new Uint8Array(768); }
  setColormap(rgb) { this.rgb = Uint8Array.from(rgb); }
  draw(nx, ny, data, f, lo, hi) {
    const img = this.ctx.createImageData(nx, ny), px = img.data, span = f.max - f.min;
    for (let j = 0; j < ny; ++j) {
      for (let i = 0; i < nx; ++i) {
        const q = data[j * nx + i], o = 4 * ((ny - 1 - j) * nx + i);
        if (q === 65535) { px[o] = 255; px[o + 1] = 0; px[o + 2] = 255; px[o + 3] = 255; continue; }
        const v = f.min + q / 65534 * span, t = hi > lo ? Math.min(1, Math.max(0, (v - lo) / (hi - lo))) : 0;
        const k = 3 * Math.min(255, Math.floor(t * 256));
        px[o] = this.rgb[k]; px[o + 1] = this.rgb[k + 1]; px[o + 2] = this.rgb[k + 2]; px[o + 3] = 255;
      }
    }
    this.ctx.putImageData(img, 0, 0);
  }
}

// The renderer for a canvas: WebGL2 where the browser has it.
export function makeRenderer(canvas) {
  const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true, antialias: false });
  if (gl) {
    try {
      const r = new GlRenderer(canvas, gl);
      r.kind = 'webgl2';
      return r;
    } catch (e) {
      console.warn('pdex: WebGL2 failed, drawing with a 2D canvas:', e);
    }
  }
  const r = new CanvasRenderer(canvas);
  r.kind = '2d';
  return r;
}

// The colour bar: the colormap's 256 entries left to right.
export function drawColorbar(canvas, rgb) {
  const ctx = canvas.getContext('2d'), img = ctx.createImageData(256, 1);
  for (let k = 0; k < 256; ++k) {
    img.data[4 * k] = rgb[3 * k]; img.data[4 * k + 1] = rgb[3 * k + 1]; img.data[4 * k + 2] = rgb[3 * k + 2]; img.data[4 * k + 3] = 255;
  }
  ctx.putImageData(img, 0, 0);
}
