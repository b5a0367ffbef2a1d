/** The search engine Glob and Grep share: ripgrep resolution, the ripgrep runner and the JavaScript fallback. */
export { compareRipgrepPaths, compareUtf8 } from './path-order.js';
export {
  findOnPath,
  isExecutableFile,
  loadVscodeRgPath,
  type ResolveSearchEngineOptions,
  type RipgrepSource,
  resolveSearchEngine,
  type SearchEngine,
  searchEngineProvider,
} from './resolve-ripgrep.js';
export { type MtimeOrder, mtimeOf, type RankedFile, RankedFiles } from './ranked-files.js';
export {
  compatChoice,
  describeSearchRoot,
  formatResultPath,
  hasNullByte,
  isAbsentPath,
  isNonNegativeInteger,
  pathKind,
  resolvedCwd,
  resolveSearchPath,
  type SearchPathStyle,
  searchPathAsNamed,
} from './search-paths.js';
export { type RipgrepRunOptions, type RipgrepRunResult, runRipgrep } from './run-ripgrep.js';
export { listFiles, ripgrepListArgs, ripgrepSearchArgs, searchFiles } from './search-engine.js';
export {
  DEFAULT_MAX_COLUMNS,
  LONG_LINE_MARKER,
  type ListFilesRequest,
  type SearchMode,
  type SearchOutcome,
  type SearchRecord,
  type SearchRequest,
  VCS_DIRECTORIES,
} from './search-types.js';
