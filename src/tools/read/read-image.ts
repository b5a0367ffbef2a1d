/**
 * Reading an image for the model (the Claude Code tools reference "Other file types"): png, jpeg, gif and webp become an
 * `image` content block. An image larger than the model accepts is downscaled with sharp to fit
 * {@link IMAGE_MAX_DIMENSION_PX} on each side; one still over {@link IMAGE_TARGET_BYTES} after
 * that is re-encoded as JPEG at falling quality, then shrunk further, until it fits (spec: since
 * 2.1.196 an image still over 500 KB after the resize becomes a lower-quality JPEG).
 *
 * The media type comes from the decoded content, not the file name (a `.png` that holds a JPEG is
 * sent as `image/jpeg`).
 */
import type Sharp from 'sharp';
import type { ImageBlock } from '../../core/index.js';
import { ToolInputError } from '../../core/index.js';

/** Longest side the model is sent, in pixels. */
export const IMAGE_MAX_DIMENSION_PX = 2000;
/** Largest image sent untouched (3.75 MB: 5 MB of base64). */
export const IMAGE_MAX_RAW_BYTES = 3_750_000;
/** Size an image that had to be processed is brought under (500 KB). */
export const IMAGE_TARGET_BYTES = 500_000;

export type ImageMediaType = ImageBlock['source']['media_type'];

/** Extensions Read treats as images. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

const FORMAT_TO_MEDIA: Record<string, ImageMediaType> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Structured result of an image read (the Claude Code tools reference: `{type:"image", file:{base64, type, originalSize, dimensions?}}`). */
export interface ReadImageOutput {
  type: 'image';
  file: {
    base64: string;
    type: ImageMediaType;
    originalSize: number;
    dimensions?: {
      originalWidth: number;
      originalHeight: number;
      displayWidth: number;
      displayHeight: number;
    };
  };
}

type SharpFactory = typeof Sharp;
let sharpPromise: Promise<SharpFactory> | undefined;

/** sharp's native library is loaded on the first image, not when the tool registry loads. */
function loadSharp(): Promise<SharpFactory> {
  sharpPromise ??= import('sharp').then((m) => m.default);
  return sharpPromise;
}

/**
 * Prepares `bytes` (the whole image file) for the model.
 * @throws ToolInputError when sharp cannot decode it as one of the four formats.
 */
export async function prepareImage(filePath: string, bytes: Buffer): Promise<ReadImageOutput> {
  const sharp = await loadSharp();
  let meta: Awaited<ReturnType<ReturnType<SharpFactory>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch (error) {
    throw new ToolInputError(
      `${filePath} could not be decoded as an image (${(error as Error).message}). ` +
        'Check the file with Bash (`file <path>`); if it is not an image, read it as what it is.',
    );
  }
  const mediaType = meta.format ? FORMAT_TO_MEDIA[meta.format] : undefined;
  if (!mediaType) {
    throw new ToolInputError(
      `${filePath} holds ${meta.format ?? 'an unknown'} image data; only png, jpeg, gif and webp can be shown. ` +
        'Convert it first with Bash (e.g. `convert in out.png`).',
    );
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const tooLarge =
    width > IMAGE_MAX_DIMENSION_PX || height > IMAGE_MAX_DIMENSION_PX || bytes.length > IMAGE_MAX_RAW_BYTES;
  if (!tooLarge) {
    return {
      type: 'image',
      file: {
        base64: bytes.toString('base64'),
        type: mediaType,
        originalSize: bytes.length,
        dimensions: {
          originalWidth: width,
          originalHeight: height,
          displayWidth: width,
          displayHeight: height,
        },
      },
    };
  }
  const shrunk = await shrink(sharp, bytes, meta.format as ImageFormat);
  return {
    type: 'image',
    file: {
      base64: shrunk.data.toString('base64'),
      type: shrunk.mediaType,
      originalSize: bytes.length,
      dimensions: {
        originalWidth: width,
        originalHeight: height,
        displayWidth: shrunk.width,
        displayHeight: shrunk.height,
      },
    },
  };
}

type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

async function shrink(
  sharp: SharpFactory,
  bytes: Buffer,
  format: ImageFormat,
): Promise<{ data: Buffer; mediaType: ImageMediaType; width: number; height: number }> {
  // First pass: same format, fitted inside the maximum box (EXIF orientation applied).
  const fitted = await sharp(bytes)
    .rotate()
    .resize({
      width: IMAGE_MAX_DIMENSION_PX,
      height: IMAGE_MAX_DIMENSION_PX,
      fit: 'inside',
      withoutEnlargement: true,
    })
    .toFormat(format)
    .toBuffer({ resolveWithObject: true });
  if (fitted.data.length <= IMAGE_TARGET_BYTES) {
    return {
      data: fitted.data,
      mediaType: FORMAT_TO_MEDIA[format] as ImageMediaType,
      width: fitted.info.width,
      height: fitted.info.height,
    };
  }
  // Then JPEG at falling quality; when still too big, shrink by the square root of the overshoot.
  const width = fitted.info.width;
  let scale = 1;
  let last = fitted;
  for (let attempt = 0; attempt < 8; attempt++) {
    for (const quality of [80, 60]) {
      last = await sharp(fitted.data)
        .resize({ width: Math.max(1, Math.round(width * scale)) })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality })
        .toBuffer({ resolveWithObject: true });
      if (last.data.length <= IMAGE_TARGET_BYTES) {
        return { data: last.data, mediaType: 'image/jpeg', width: last.info.width, height: last.info.height };
      }
    }
    scale *= Math.min(0.9, Math.sqrt(IMAGE_TARGET_BYTES / last.data.length) * 0.95);
  }
  return { data: last.data, mediaType: 'image/jpeg', width: last.info.width, height: last.info.height };
}

/** The content block for an image result. */
export function imageBlock(output: ReadImageOutput): ImageBlock {
  return {
    type: 'image',
    source: { type: 'base64', media_type: output.file.type, data: output.file.base64 },
  };
}
