/**
 * Image output: a command whose whole output is a `data:image/<png|jpeg|gif|webp>;base64,…` URL comes
 * back to the model as an image block (the Claude Code tools reference "Image data written to stdout as a data: URL comes
 * back as an image", `isImage`; the 2.1.72 fix for oversized images).
 *
 * The bytes are decoded and checked with sharp; an image larger than {@link MAX_IMAGE_DIMENSION}
 * pixels on a side or {@link MAX_IMAGE_BASE64_CHARS} of base64 is downscaled and re-encoded so the
 * API accepts it. Anything that does not decode as an image is treated as text.
 */
import type Sharp from 'sharp';
import type { ImageBlock } from '../../core/index.js';

type SharpFactory = typeof Sharp;
let sharpPromise: Promise<SharpFactory> | undefined;

/** sharp's native library is loaded on the first image output, not when the Bash tool loads. */
function loadSharp(): Promise<SharpFactory> {
  sharpPromise ??= import('sharp').then((m) => m.default);
  return sharpPromise;
}

/** Longest image side sent to the model, pixels. */
export const MAX_IMAGE_DIMENSION = 2000;
/** Largest base64 payload sent, characters (under the API's 5 MB per-image limit). */
export const MAX_IMAGE_BASE64_CHARS = 3_500_000;
/** Output files larger than this are never read back as an image, bytes. */
export const MAX_IMAGE_OUTPUT_BYTES = 20 * 1024 * 1024;

const DATA_URL = /^data:image\/(png|jpeg|jpg|gif|webp);base64,/;

type MediaType = ImageBlock['source']['media_type'];

/** True when the output (its first characters suffice) starts like an image data URL. */
export function looksLikeImageDataUrl(head: string): boolean {
  return DATA_URL.test(head.trimStart());
}

/** The image in `output` as `{mediaType, data}`, downscaled when needed; undefined when it is not a valid image. */
export async function parseImageDataUrl(
  output: string,
): Promise<{ mediaType: MediaType; data: string } | undefined> {
  const trimmed = output.trim();
  const match = DATA_URL.exec(trimmed);
  if (!match) return undefined;
  const base64 = trimmed.slice(match[0].length).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<ReturnType<SharpFactory>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    return undefined;
  }
  const format = String(meta.format) === 'jpg' ? 'jpeg' : String(meta.format);
  if (format !== 'png' && format !== 'jpeg' && format !== 'gif' && format !== 'webp') return undefined;
  const mediaType: MediaType = `image/${format}`;
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (
    width <= MAX_IMAGE_DIMENSION &&
    height <= MAX_IMAGE_DIMENSION &&
    base64.length <= MAX_IMAGE_BASE64_CHARS
  ) {
    return { mediaType, data: base64 };
  }
  let quality = 85;
  for (;;) {
    const resized = await sharp(bytes)
      .resize({
        width: MAX_IMAGE_DIMENSION,
        height: MAX_IMAGE_DIMENSION,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .jpeg({ quality })
      .toBuffer();
    const data = resized.toString('base64');
    if (data.length <= MAX_IMAGE_BASE64_CHARS || quality <= 30) return { mediaType: 'image/jpeg', data };
    quality -= 20;
  }
}
