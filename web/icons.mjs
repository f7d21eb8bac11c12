// The app's icon, drawn from one geometry (a white "WC" of round strokes on the site's blue) as the SVG
// favicon and as PNGs, which Chromium's install check needs (at least 144 px; 192 and 512 are usual, plus
// a maskable one whose drawing stays inside the central 80 % circle). Pure JavaScript: a small
// anti-aliased rasteriser and PNG encoder on node:zlib, so `npm run build` needs no image tool.
import { deflateSync } from 'node:zlib';

const BLUE = [0x0b, 0x5c, 0xad];
const STROKE = 5;
/** In a 64×64 box: the W as a polyline, the C as an arc open to the right. */
const W = [[10, 22], [16, 44], [22, 28], [28, 44], [34, 22]];
const C = { x: 46, y: 33, r: 10, gap: Math.PI / 4 };

function segmentDistance(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function inLetters(x, y) {
  for (let i = 1; i < W.length; i++) if (segmentDistance(x, y, W[i - 1], W[i]) <= STROKE / 2) return true;
  const angle = Math.atan2(y - C.y, x - C.x);
  if (Math.abs(angle) >= C.gap) return Math.abs(Math.hypot(x - C.x, y - C.y) - C.r) <= STROKE / 2;
  // the round ends of the arc
  return [-C.gap, C.gap].some((a) => Math.hypot(x - C.x - C.r * Math.cos(a), y - C.y - C.r * Math.sin(a)) <= STROKE / 2);
}

function inRoundedSquare(x, y, radius) {
  const cx = Math.min(Math.max(x, radius), 64 - radius);
  const cy = Math.min(Math.max(y, radius), 64 - radius);
  return x >= 0 && x <= 64 && y >= 0 && y <= 64 && Math.hypot(x - cx, y - cy) <= radius;
}

/** RGBA pixels of the icon at `size` px; maskable: full-bleed blue, letters shrunk into the safe zone. */
function draw(size, maskable) {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = 4;
  const scale = maskable ? 0.72 : 1;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let cover = 0;
      let white = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 64;
          const y = ((py + (sy + 0.5) / samples) / size) * 64;
          if (!maskable && !inRoundedSquare(x, y, 14)) continue;
          cover++;
          if (inLetters(32 + (x - 32) / scale + 1, 32 + (y - 32) / scale + 1)) white++;
        }
      }
      const n = samples * samples;
      const o = (py * size + px) * 4;
      const w = cover === 0 ? 0 : white / cover;
      for (let c = 0; c < 3; c++) pixels[o + c] = Math.round(BLUE[c] * (1 - w) + 255 * w);
      pixels[o + 3] = Math.round((cover / n) * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The icon as a PNG file (8-bit RGBA, no filtering: the flat colours compress well anyway). */
export function iconPng(size, maskable = false) {
  const pixels = draw(size, maskable);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** The same icon as SVG (the favicon). */
export function iconSvg() {
  const start = [C.x + C.r * Math.cos(-C.gap), C.y + C.r * Math.sin(-C.gap)].map((v) => v.toFixed(2));
  const end = [C.x + C.r * Math.cos(C.gap), C.y + C.r * Math.sin(C.gap)].map((v) => v.toFixed(2));
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5cad"/>`
    + `<g fill="none" stroke="#fff" stroke-width="${STROKE}" stroke-linecap="round" stroke-linejoin="round">`
    + `<polyline points="${W.map((p) => p.join(',')).join(' ')}"/><path d="M${start.join(',')}A${C.r},${C.r} 0 1,0 ${end.join(',')}"/></g></svg>\n`;
}

/** The icons the build writes beside the manifest: public path → bytes. */
export const ICON_FILES = {
  'icon.svg': () => iconSvg(),
  'icon-192.png': () => iconPng(192),
  'icon-512.png': () => iconPng(512),
  'icon-maskable-512.png': () => iconPng(512, true),
};
