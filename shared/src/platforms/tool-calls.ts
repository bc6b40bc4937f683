import { isJsonObject, jsonText, parseEmbeddedJson, plainText, type JsonObject } from './payload';

/**
 * The record's tool call shape `{name, input, output, …}` with the platform's other fields kept after
 * it. Mapped fields win over same-named leftovers; fields that could not be mapped are left out, so a
 * call without a name is reported by validation rather than named by guesswork.
 */
function toolCall(mapped: JsonObject, rest: JsonObject): JsonObject {
  const call: JsonObject = {};
  for (const [key, value] of Object.entries(mapped)) if (value !== undefined) call[key] = value;
  for (const [key, value] of Object.entries(rest)) if (!Object.hasOwn(call, key)) call[key] = value;
  return call;
}

/** n8n AI Agent `intermediateSteps[i]`: `{action: {tool, toolInput, toolCallId, log, type}, observation}`. */
export function toolCallFromN8nStep(step: JsonObject, action: JsonObject): JsonObject {
  const { tool, toolInput, ...actionRest } = action;
  const { action: _action, observation, ...stepRest } = step;
  return toolCall(
    { name: plainText(tool), input: parseEmbeddedJson(toolInput), output: parseEmbeddedJson(observation) },
    { ...actionRest, ...stepRest },
  );
}

/** Flowise `usedTools[i]`: `{tool, toolInput, toolOutput (string|object), error?}`. */
export function toolCallFromFlowiseUsedTool(used: JsonObject): JsonObject {
  const { tool, toolInput, toolOutput, error, ...rest } = used;
  const failed = error !== undefined && error !== null && error !== false && error !== '';
  return toolCall(
    {
      name: plainText(tool),
      input: parseEmbeddedJson(toolInput),
      output: parseEmbeddedJson(toolOutput),
      error: failed ? (typeof error === 'string' ? error : (jsonText(error) ?? String(error))) : undefined,
      success: failed ? false : undefined,
    },
    rest,
  );
}

/** OpenAI-style `{id, type: "function", function: {name, arguments (JSON string)}}`, which agents forward. */
export function toolCallFromFunctionCall(call: JsonObject, fn: JsonObject): JsonObject {
  const { function: _fn, ...rest } = call;
  const { name, arguments: args, ...fnRest } = fn;
  return toolCall({ name: plainText(name), input: parseEmbeddedJson(args) }, { ...fnRest, ...rest });
}

/** One tool call in whichever family shape it arrived; anything unrecognised is left for validation. */
export function normalizeToolCall(call: unknown): unknown {
  if (!isJsonObject(call)) return call;
  if (call.name !== undefined) {
    // Already `{name, input, output}`; only a numeric name is turned into text.
    return typeof call.name === 'number' ? { ...call, name: plainText(call.name) ?? call.name } : call;
  }
  if (isJsonObject(call.action)) return toolCallFromN8nStep(call, call.action);
  if (call.tool !== undefined) return toolCallFromFlowiseUsedTool(call);
  if (isJsonObject(call.function)) return toolCallFromFunctionCall(call, call.function);
  return call;
}

/** A list of tool calls normalised one by one; a non-list is left for validation to report. */
export function normalizeToolCalls(calls: unknown): unknown {
  return Array.isArray(calls) ? calls.map(normalizeToolCall) : calls;
}
