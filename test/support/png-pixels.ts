// Decodes a PNG (8-bit RGB or RGBA, not interlaced: what headless Chromium writes) to RGBA pixels with
// node:zlib only, so screenshot tests can look at colours without an image library.

import { inflateSync } from 'node:zlib';

/** Width and height in pixels; `rgba` holds 4 bytes per pixel, row by row. */
export interface PngPixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Decodes `bytes`; throws on anything but an 8-bit, non-interlaced RGB or RGBA PNG. */
export function decodePng(bytes: Buffer): PngPixels {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colorType, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || interlace !== 0 || (colorType !== 2 && colorType !== 6)) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colorType}, interlace ${interlace})`);
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x += 1) {
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels]! : 0;
      const predictor = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      if (predictor === undefined) throw new Error(`bad PNG filter ${filter}`);
      pixels[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i += 1) rgba.set([pixels[i * 3]!, pixels[i * 3 + 1]!, pixels[i * 3 + 2]!, 255], i * 4);
  return { width, height, rgba };
}

/** Pixels within `tolerance` (per channel, 0..255) of the CSS hex colour `hex` (`#rrggbb`). */
export function countColor(png: PngPixels, hex: string, tolerance = 6): number {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
  let count = 0;
  for (let i = 0; i < png.rgba.length; i += 4) {
    if (Math.abs(png.rgba[i]! - r) <= tolerance && Math.abs(png.rgba[i + 1]! - g) <= tolerance && Math.abs(png.rgba[i + 2]! - b) <= tolerance) count += 1;
  }
  return count;
}

/** Share (0..1) of pixels that are not (near) white. */
export function inkShare(png: PngPixels): number {
  let ink = 0;
  for (let i = 0; i < png.rgba.length; i += 4) if (png.rgba[i]! < 235 || png.rgba[i + 1]! < 235 || png.rgba[i + 2]! < 235) ink += 1;
  return ink / (png.width * png.height);
}
