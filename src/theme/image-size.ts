/*
 * The size in pixels of a picture of static/, read from its first bytes, so that a page can give an
 * <img> its width and height (the browser keeps its place before it loads: no layout shift).
 */

export interface ImageSize {
  width: number;
  height: number;
}

/** The width and height of a PNG, JPEG, WebP, GIF or SVG file's bytes (not rounded: an SVG may say 100.5); undefined when they do not say. */
export function imageSize(bytes: Buffer): ImageSize | undefined {
  const text = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (bytes.length >= 24 && text(1, 4) === 'PNG' && text(12, 16) === 'IHDR') return size(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  if (bytes.length >= 10 && /^GIF8[79]a$/.test(text(0, 6))) return size(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  if (bytes.length >= 30 && text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP') return webpSize(bytes);
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes);
  return svgSize(bytes.toString('utf8'));
}

const size = (width: number, height: number): ImageSize | undefined =>
  width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height) ? { width, height } : undefined;

function webpSize(bytes: Buffer): ImageSize | undefined {
  const chunk = bytes.subarray(12, 16).toString('latin1');
  // Extended: 24-bit width and height minus one; lossless: 14-bit each after the signature byte; lossy: 14-bit after the start code.
  if (chunk === 'VP8X') return size(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return size(1 + (bits & 0x3fff), 1 + ((bits >> 14) & 0x3fff));
  }
  if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) return size(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  return undefined;
}

/** The size in the first start-of-frame segment (markers C0 to CF but C4, C8 and CC). */
function jpegSize(bytes: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return size(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    // Markers without a length (restart, start and end of image), then those with one.
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) at += 2;
    else at += 2 + bytes.readUInt16BE(at + 2);
  }
  return undefined;
}

/** width and height in pixels (or without a unit) of the <svg> element, else its viewBox. */
function svgSize(source: string): ImageSize | undefined {
  const tag = /<svg\b[^>]*>/.exec(source)?.[0];
  if (!tag) return undefined;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`).exec(tag)?.[1]?.trim();
  const pixels = (value: string | undefined) => (value && /^\d+(\.\d+)?(px)?$/.test(value) ? parseFloat(value) : undefined);
  const box = attr('viewBox')?.split(/[\s,]+/).map(Number);
  const [boxWidth, boxHeight] = box && box.length === 4 ? [box[2]!, box[3]!] : [NaN, NaN];
  const width = pixels(attr('width'));
  const height = pixels(attr('height'));
  if (width !== undefined && height !== undefined) return size(width, height);
  // One of the two: the other follows the viewBox's ratio.
  if (width !== undefined) return size(width, (width * boxHeight) / boxWidth);
  if (height !== undefined) return size((height * boxWidth) / boxHeight, height);
  return size(boxWidth, boxHeight);
}
