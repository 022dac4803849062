#!/usr/bin/env node
// Draws the app icon — a cairn of three stacked stones on a dusk-blue tile — as build/icon.png (1024×1024).
// electron-builder makes the Windows .ico and the macOS .icns from it when packaging.
//
//   node scripts/make-icon.mjs [--out FILE]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { encodePng } from './build/png.mjs';
import { ROOT } from './build/runtime-deps.mjs';

const SIZE = 1024;
// Samples per pixel along each axis, for smooth (anti-aliased) edges.
const SUPERSAMPLE = 3;

const hex = (value) => [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16));

function mix(a, b, t) {
  return a.map((v, i) => v + (b[i] - v) * t);
}

/** A rounded square with a vertical gradient; macOS-style margins so it sits well beside other icons. */
function tile() {
  const [x0, y0, x1, y1, r] = [100, 100, 924, 924, 184];
  const top = hex('#4f7fa0');
  const bottom = hex('#1e3a4f');
  return {
    box: [x0, y0, x1, y1],
    contains(x, y) {
      const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
      const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
      return dx * dx + dy * dy <= r * r;
    },
    color: (_x, y) => [...mix(top, bottom, (y - y0) / (y1 - y0)), 1],
  };
}

/** An elliptical stone, lit from the upper left, with a darker rim that separates it from the stone below. */
function stone(cx, cy, rx, ry, base) {
  const rgb = hex(base);
  return {
    box: [cx - rx, cy - ry, cx + rx, cy + ry],
    contains: (x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1,
    color(x, y) {
      const nx = (x - cx) / rx;
      const ny = (y - cy) / ry;
      let light = 1 - 0.12 * nx - 0.22 * ny;
      if (nx * nx + ny * ny > 0.9) light *= 0.82;
      return [...rgb.map((v) => Math.min(255, v * light)), 1];
    },
  };
}

function shadow(cx, cy, rx, ry) {
  return {
    box: [cx - rx, cy - ry, cx + rx, cy + ry],
    contains: (x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1,
    color: () => [8, 20, 30, 0.35],
  };
}

// Painted in order, back to front.
const LAYERS = [
  tile(),
  shadow(512, 742, 300, 36),
  stone(512, 650, 270, 100, '#8c877d'),
  stone(498, 495, 200, 82, '#a59f93'),
  stone(522, 360, 128, 68, '#c6bfb1'),
];

/** The colour at one point: the layers composited over transparency, premultiplied. */
function sample(x, y) {
  let [r, g, b, a] = [0, 0, 0, 0];
  for (const layer of LAYERS) {
    const [x0, y0, x1, y1] = layer.box;
    if (x < x0 || x > x1 || y < y0 || y > y1 || !layer.contains(x, y)) continue;
    const [lr, lg, lb, la] = layer.color(x, y);
    r = lr * la + r * (1 - la);
    g = lg * la + g * (1 - la);
    b = lb * la + b * (1 - la);
    a = la + a * (1 - la);
  }
  return [r, g, b, a];
}

function drawIcon() {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  const n = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let i = 0; i < n; i++) {
        const [sr, sg, sb, sa] = sample(
          px + ((i % SUPERSAMPLE) + 0.5) / SUPERSAMPLE,
          py + (Math.floor(i / SUPERSAMPLE) + 0.5) / SUPERSAMPLE,
        );
        r += sr;
        g += sg;
        b += sb;
        a += sa;
      }
      const at = (py * SIZE + px) * 4;
      // Back from premultiplied to the straight alpha PNG stores.
      pixels[at] = a > 0 ? Math.round(r / a) : 0;
      pixels[at + 1] = a > 0 ? Math.round(g / a) : 0;
      pixels[at + 2] = a > 0 ? Math.round(b / a) : 0;
      pixels[at + 3] = Math.round((a / n) * 255);
    }
  }
  return encodePng(SIZE, SIZE, pixels);
}

const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
const out = path.resolve(values.out ?? path.join(ROOT, 'build', 'icon.png'));
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, drawIcon());
console.error(`Wrote ${path.relative(process.cwd(), out) || out}`);
