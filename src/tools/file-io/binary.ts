/**
 * Recognising binary files, which Read refuses and Edit/Write will not overwrite as text
 * (the Claude Code tools reference item 6 leaves recognition to us). Two signals, either suffices:
 * - a known binary extension (archives, executables, media, fonts, databases…);
 * - a NUL byte in the first 8 KiB of content that carries no UTF-16 BOM.
 * Images, PDFs and notebooks are not in the list: Read has dedicated handlers for them.
 */
import path from 'node:path';

/** Bytes sampled from the start of a file for content sniffing. */
export const BINARY_SNIFF_BYTES = 8192;

const BINARY_EXTENSIONS = new Set(
  (
    'exe dll so dylib o a lib obj bin class jar war ear pyc pyo pyd wasm dex ' +
    'zip gz tgz bz2 xz zst lz4 7z rar tar cab iso dmg deb rpm apk msi pkg ' +
    'mp3 mp4 m4a m4v mov avi mkv wav flac ogg oga opus webm wmv wma aac mid midi ' +
    'bmp tif tiff ico icns psd heic heif avif raw cr2 nef ' +
    'ttf otf woff woff2 eot ' +
    'sqlite sqlite3 db mdb accdb dbf parquet feather arrow npy npz pkl pickle h5 hdf5 ' +
    'doc docx xls xlsx ppt pptx odt ods odp ' +
    'swf fla blend fbx glb 3ds dat'
  ).split(' '),
);

/** Lower-case extension without the dot (`''` when none). */
export function extensionOf(filePath: string): string {
  return path.extname(filePath).slice(1).toLowerCase();
}

/** True for extensions that are always binary. */
export function hasBinaryExtension(filePath: string): boolean {
  return BINARY_EXTENSIONS.has(extensionOf(filePath));
}

/** True when the sampled head holds a NUL byte and is not UTF-16 with a BOM. */
export function looksBinary(head: Uint8Array): boolean {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return false;
  const sample = head.subarray(0, BINARY_SNIFF_BYTES);
  return sample.includes(0);
}
