/** `gantry --help` on a terminal without `-p`. The flags are the agent command line's (docs/cli-print.md). */
export const INTERACTIVE_HELP = `Usage: gantry [options] ["<first prompt>"]

Starts an interactive agent session in this terminal (docs/cli-interactive.md). Every flag of
gantry -p that shapes a session works here too (model, permissions, tools, settings, sessions):

  --model <name>, --provider <anthropic|openai>
  --permission-mode <mode>, --allowedTools <rules...>, --disallowedTools <rules...>, --tools <names...>
  --settings <file|json>, --setting-sources <user,project,local>, --add-dir <dirs...>
  --system-prompt <text>, --append-system-prompt <text>, --max-turns <n>, --max-budget-usd <usd>
  --session-id <uuid>, -c/--continue, -r/--resume <id>, --fork-session, --no-session-persistence
  --agents <json|file>, --agent <name> (run the session as that agent: its prompt, tools, model, mode)

Keys: Enter sends the prompt; Ctrl-C interrupts the running turn, a second Ctrl-C exits; /exit quits.
Permission asks offer: yes once, yes always (saves the rule shown to the settings file shown),
or no with a note for the model.

Headless: gantry -p --help.
`;
