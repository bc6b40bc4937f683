import { describe, expect, it } from 'vitest';
import { normalizeN8nPayload } from './n8n';
import type { Normalized } from './types';

function recordOf(out: Normalized): Record<string, unknown> {
  if (out.kind !== 'interaction') throw new Error(`expected an interaction, got ${out.kind}`);
  return out.record;
}

describe('normalizeN8nPayload', () => {
  it('maps the AI Agent output and chat trigger onto the record', () => {
    const record = recordOf(
      normalizeN8nPayload(
        { chatInput: 'Hi', output: 'Hello', sessionId: 's-1', workflowId: 'wf', nodeId: 'AI Agent' },
        { agentId: 'Support' },
      ),
    );
    expect(record).toEqual({
      agentId: 'Support',
      prompt: 'Hi',
      response: 'Hello',
      sessionId: 's-1',
      workflowId: 'wf',
      nodeId: 'AI Agent',
      metadata: { platform: 'n8n' },
    });
  });

  it('keeps structured output (output parser attached) as its JSON text', () => {
    const record = recordOf(
      normalizeN8nPayload({ agentId: 'a', chatInput: 'q', output: { answer: 'yes', confidence: 0.9 } }, {}),
    );
    expect(JSON.parse(record.response as string)).toEqual({ answer: 'yes', confidence: 0.9 });
    expect(record.output).toBeUndefined();
  });

  it('turns intermediate steps into tool calls, parsing JSON observations and keeping the rest', () => {
    const record = recordOf(
      normalizeN8nPayload(
        {
          agentId: 'a',
          chatInput: 'q',
          output: 'r',
          intermediateSteps: [
            {
              action: {
                tool: 'http',
                toolInput: '{"url":"https://x"}',
                toolCallId: 'c1',
                log: 'calling',
                type: 'tool_call',
              },
              observation: '[{"ok":true}]',
            },
            { action: { tool: 'calc', toolInput: { a: 1 } }, observation: 'plain text, not JSON' },
          ],
        },
        {},
      ),
    );
    expect(record.toolCalls).toEqual([
      {
        name: 'http',
        input: { url: 'https://x' },
        output: [{ ok: true }],
        toolCallId: 'c1',
        log: 'calling',
        type: 'tool_call',
      },
      { name: 'calc', input: { a: 1 }, output: 'plain text, not JSON' },
    ]);
    expect(record.intermediateSteps).toBeUndefined();
  });

  it('turns numeric execution, workflow and session ids into text', () => {
    const record = recordOf(
      normalizeN8nPayload(
        { agentId: 'a', prompt: 'p', response: 'r', executionId: 1288, workflowId: 7, sessionId: 42 },
        {},
      ),
    );
    expect(record).toMatchObject({ executionId: '1288', workflowId: '7', sessionId: '42' });
  });

  it('names the agent after the workflow when neither the body nor the query does', () => {
    expect(
      recordOf(normalizeN8nPayload({ workflowId: 'aB3xK9', chatInput: 'q', output: 'r' }, {})).agentId,
    ).toBe('aB3xK9');
    expect(recordOf(normalizeN8nPayload({ workflowId: 991, chatInput: 'q', output: 'r' }, {})).agentId).toBe(
      '991',
    );
  });

  it('lets the body agentId win over the query', () => {
    expect(
      recordOf(normalizeN8nPayload({ agentId: 'body', prompt: 'p', response: 'r' }, { agentId: 'query' }))
        .agentId,
    ).toBe('body');
  });

  it('leaves the prompt missing when the chat input is absent, for validation to report', () => {
    const record = recordOf(normalizeN8nPayload({ output: 'r' }, { agentId: 'a' }));
    expect(record.prompt).toBeUndefined();
    expect(record.response).toBe('r');
  });
});
