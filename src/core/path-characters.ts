/**
 * Characters in a file tool's path that make the file the filesystem opens differ from the one the
 * permission engine judged (docs/security-round-2.md "Bypass mode"): a NUL byte ends the path for
 * every C library call, so `.bashrc\0.txt` is `.bashrc`; other control characters hide parts of
 * the path in every display of it. Findings, so the engine denies (NUL) or asks (the rest) in every
 * mode.
 */
import type { Finding } from './permission-types.js';

/** Finding ids (the permission engine treats both as every-mode). */
export const PATH_NUL_BYTE = 'PATH_NUL_BYTE';
export const PATH_CONTROL_CHARACTER = 'PATH_CONTROL_CHARACTER';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them.
const CONTROL = /[\u0001-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Findings for the path in input field `field` (empty for an ordinary path). */
export function pathCharacterFindings(p: string, field: string): Finding[] {
  if (p.includes('\u0000'))
    return [
      {
        id: PATH_NUL_BYTE,
        behavior: 'deny',
        message: `${field} contains a NUL byte: the filesystem would stop reading the path there and open a different file than the one named (${JSON.stringify(p.slice(0, p.indexOf('\u0000')))})`,
      },
    ];
  if (CONTROL.test(p))
    return [
      {
        id: PATH_CONTROL_CHARACTER,
        behavior: 'ask',
        message: `${field} contains a control or bidirectional-override character that hides part of the path when displayed (${JSON.stringify(p)})`,
      },
    ];
  return [];
}
