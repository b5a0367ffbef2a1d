/**
 * The neutral tool definitions (`{name, description, input_schema}`) are rendered in
 * `runtime/tool-definitions.ts`, below `mcp/` which serves them too; providers import them from here.
 */
export {
  renderToolDefinitionsJson,
  type ToolDefinition,
  toolDefinition,
  toolDefinitions,
} from '../runtime/tool-definitions.js';
