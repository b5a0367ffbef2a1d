/** Tool definitions live in the runtime (the tool pool and the MCP server render them too); re-exported for `model/`. */
export {
  deferredToolDefinition,
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from '../runtime/tool-definitions.js';
