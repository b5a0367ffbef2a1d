/**
 * Gantry's tools for the Vercel AI SDK (`ai` 6; docs/adapters.md): one AI SDK `tool()` per Gantry
 * tool, with the input's JSON Schema, `needsApproval` answered by Gantry's permission engine and
 * `execute` running the call through Gantry's runtime.
 *
 * ```ts
 * import { generateText } from 'ai';
 * import { createGantryToolset } from 'gantry/agent';
 * import { aiSdkTools } from 'gantry/ai-sdk';
 * const toolset = await createGantryToolset({ cwd: process.cwd() });
 * const result = await generateText({ model, tools: aiSdkTools(toolset), prompt: 'Run the tests' });
 * // result.content has a `tool-approval-request` for each call the engine asks about: answer it
 * // with a `tool-approval-response` message and call generateText again.
 * ```
 *
 * - engine `allow` → no approval, the call runs;
 * - engine `ask` → `needsApproval` is true: the AI SDK stops with an approval request; an
 *   approved call runs (the runtime's own ask is answered yes for that call id), a denied one never
 *   reaches `execute` (the SDK sends the model an `execution-denied` result with the reason);
 * - engine `deny` → no approval is asked, `execute` runs the call through the engine, which
 *   refuses it: `execute` throws the refusal, which the model gets as the tool's error.
 *
 * Approval is recognised by the call id: this tool set saw the ask, or the conversation passed to
 * `execute` holds the person's `tool-approval-response` for it (so a new process with the same
 * messages works too). A call the engine asks about with neither is refused.
 *
 * `ai` is a peer dependency (pinned, optional: only this entry needs it).
 */
import { jsonSchema, type Tool, tool } from 'ai';
import type { GantryToolset } from './toolset.js';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** True when `messages` approve `toolCallId` (a `tool-approval-request` answered `approved: true`). */
export function approvedInMessages(messages: readonly unknown[], toolCallId: string): boolean {
  const approvalIds = new Set<string>();
  const answers = new Map<string, boolean>();
  for (const m of messages) {
    if (!isObj(m) || !Array.isArray(m.content)) continue;
    for (const part of m.content) {
      if (!isObj(part)) continue;
      if (
        part.type === 'tool-approval-request' &&
        part.toolCallId === toolCallId &&
        typeof part.approvalId === 'string'
      )
        approvalIds.add(part.approvalId);
      if (part.type === 'tool-approval-response' && typeof part.approvalId === 'string')
        answers.set(part.approvalId, part.approved === true);
    }
  }
  for (const id of approvalIds) if (answers.get(id) === true) return true;
  return false;
}

/** The tool set's tools as AI SDK tools, keyed by name (see the module comment). */
export function aiSdkTools(toolset: GantryToolset): Record<string, Tool<unknown, string>> {
  const asked = new Set<string>();
  const out: Record<string, Tool<unknown, string>> = {};
  for (const t of toolset.tools) {
    out[t.name] = tool<unknown, string>({
      description: t.description,
      inputSchema: jsonSchema<unknown>(t.inputSchema as Parameters<typeof jsonSchema>[0]),
      needsApproval: async (input, { toolCallId }) => {
        const d = await toolset.decide(t.name, input, toolCallId);
        if (d.behavior !== 'ask') return false;
        asked.add(toolCallId);
        return true;
      },
      execute: async (input, { toolCallId, abortSignal, messages }) => {
        const approved = asked.has(toolCallId) || approvedInMessages(messages, toolCallId);
        asked.delete(toolCallId);
        const r = await toolset.run(t.name, input, {
          callId: toolCallId,
          approved,
          ...(abortSignal ? { signal: abortSignal } : {}),
        });
        if (r.isError) throw new Error(r.text);
        return r.text;
      },
    });
  }
  return out;
}
