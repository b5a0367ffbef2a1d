/** The core vocabulary: tool contract, context, content blocks, errors, effects, permission types, paths. */
export * from './build-tool.js';
export * from './content.js';
export * from './context.js';
export * from './effects.js';
export * from './errors.js';
export * from './paths.js';
export * from './permission-types.js';
export * from './read-file-state.js';
export * from './tool.js';
export * from './messages.js';
export * from './model-client.js';
export * from './services.js';
