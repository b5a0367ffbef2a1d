/** `gantry -p --help`. The flags follow Claude Code's command line; see docs/cli-print.md. */
export const PRINT_HELP = `Usage: gantry -p [options] "<prompt>"
       <command> | gantry -p [options] ["<prompt>"]
       gantry --output-format stream-json --input-format stream-json --verbose [options]

Runs one headless agent session and prints its result. Piped stdin is added after the prompt
(up to 10 MB).

Output
  --output-format <text|json|stream-json>  final text / the result object / one event per line
  --verbose                          accepted (stream-json always carries every event)
  --include-partial-messages         also stream_event lines (stream-json)
  --input-format <text|stream-json>  stream-json: user messages and control requests on stdin
  --replay-user-messages             echo stdin user messages back (stream-json both ways)
  --json-schema <json>               the answer as structured data (result.structured_output)

Model
  --model <name>                     model id or alias
  --provider <anthropic|openai>      model provider (also GANTRY_PROVIDER, settings "provider")
  --max-thinking-tokens <n>, --thinking <adaptive|disabled>

Permissions and tools
  --permission-mode <mode>           default, acceptEdits, plan, dontAsk, bypassPermissions, auto
  --dangerously-skip-permissions     start in bypassPermissions
  --allow-dangerously-skip-permissions  let the host switch to bypassPermissions later
  --allowedTools, --allowed-tools <rules...>        allow rules (commas or spaces)
  --disallowedTools, --disallowed-tools <rules...>  deny rules; a bare name removes the tool
  --tools <names...>                 built-in tools to offer ("" none, "default" all)
  --permission-prompt-tool stdio     ask the host (can_use_tool) instead of denying
  --settings <file|json>             an extra settings layer
  --setting-sources <user,project,local>  which settings files to read
  --add-dir <dirs...>                more working directories

Limits and prompt
  --max-turns <n>, --max-budget-usd <usd>
  --system-prompt <text>, --system-prompt-file <file>
  --append-system-prompt <text>, --append-system-prompt-file <file>

Sessions (~/.gantry/projects/<cwd-slug>/<session>.jsonl)
  --session-id <uuid>, -c/--continue, -r/--resume <id>, --fork-session, --no-session-persistence

MCP servers (also from .mcp.json and settings; ENABLE_TOOL_SEARCH=false sends every tool in full)
  --mcp-config <files|json...>, --strict-mcp-config

Agents
  --agents <json|file>       custom sub-agent types for this session
  --agent <name>             run the session as that agent (its prompt, tools, model, mode)

Exit code: 0 success, 1 error result or bad usage, 143 terminated (SIGTERM), 130 interrupted.
`;
