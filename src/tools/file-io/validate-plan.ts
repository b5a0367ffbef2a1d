/**
 * `validateInput` for the file tools that plan their change up front (Write, Edit, NotebookEdit):
 * run the plan and turn what it refuses into `{ok: false, message}`. The plan throws
 * `ToolInputError` for what the model can fix (stale read, no match, wrong extension); the file
 * system throws errors with a `code` for paths it cannot use at all — a NUL character
 * (`ERR_INVALID_ARG_VALUE`), a name too long (`ENAMETOOLONG`), a file where a directory is needed
 * (`ENOTDIR`), no permission (`EACCES`). Both become refusals with a next step, so validation never
 * throws for a schema-valid input. Anything else is a bug and is rethrown.
 */
import { ToolInputError } from '../../core/errors.js';
import type { ValidationResult } from '../../core/tool.js';
import { PathChangedError } from './checked-open.js';

const FS_HINTS: Readonly<Record<string, string>> = {
  ERR_INVALID_ARG_VALUE:
    'The path contains a NUL character, which no file name can hold. Remove it and retry.',
  ENAMETOOLONG: 'The path is too long for the file system. Use a shorter path.',
  ENOTDIR: 'A part of the path is a file, not a directory. Check the path and retry.',
  EACCES: 'Permission to this path is denied by the file system. Choose a path you may write.',
  EPERM: 'The file system does not permit this operation on the path. Choose another path.',
  ELOOP: 'The path goes through a loop of symbolic links. Use the real path.',
  EISDIR: 'The path is a directory, not a file. Give the path of a file.',
};

/** Runs `plan`; a refusal (see module doc) becomes `{ok: false, message, field}`. */
export async function validateByPlanning(
  plan: () => Promise<unknown>,
  field: string,
): Promise<ValidationResult> {
  try {
    await plan();
    return { ok: true };
  } catch (error) {
    if (error instanceof ToolInputError)
      return { ok: false, message: error.message, field: error.field ?? field };
    // The path changed while it was being looked at (a symlink swapped): refused, never thrown.
    if (error instanceof PathChangedError) return { ok: false, message: error.message, field };
    const code = (error as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && error instanceof Error) {
      const hint = Object.hasOwn(FS_HINTS, code)
        ? FS_HINTS[code]
        : `The file system refused the path (${code}).`;
      return { ok: false, message: `${hint} (${code})`, field };
    }
    throw error;
  }
}
