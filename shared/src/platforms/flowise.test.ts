import { describe, expect, it } from 'vitest';
import { normalizeFlowisePayload } from './flowise';
import type { Normalized } from './types';

function recordOf(out: Normalized): Record<string, unknown> {
  if (out.kind !== 'interaction') throw new Error(`expected an interaction, got ${out.kind}`);
  return out.record;
}

const prediction = {
  text: 'Shipped.',
  question: 'Where is order 42?',
  chatId: 'chat-1',
  chatMessageId: 'msg-1',
};

describe('normalizeFlowisePayload', () => {
  it('maps a prediction response, defaulting the session to the chat', () => {
    const record = recordOf(normalizeFlowisePayload(prediction, { agentId: 'support-bot' }));
    expect(record).toEqual({
      agentId: 'support-bot',
      prompt: 'Where is order 42?',
      response: 'Shipped.',
      chatId: 'chat-1',
      sessionId: 'chat-1',
      chatMessageId: 'msg-1',
      metadata: { platform: 'flowise' },
    });
  });

  it('keeps an explicit session id', () => {
    expect(
      recordOf(normalizeFlowisePayload({ ...prediction, sessionId: 's-9' }, { agentId: 'a' })).sessionId,
    ).toBe('s-9');
  });

  it('maps usedTools with object output, JSON-string output, plain-text output and errors', () => {
    const record = recordOf(
      normalizeFlowisePayload(
        {
          ...prediction,
          usedTools: [
            { tool: 'lookup', toolInput: { id: 42 }, toolOutput: { status: 'shipped' } },
            { tool: 'lookup', toolInput: '{"id":43}', toolOutput: '{"status":"lost"}' },
            { tool: 'search', toolInput: 'order 44', toolOutput: 'no results' },
            { tool: 'refund', toolInput: {}, toolOutput: '', error: 'timeout' },
          ],
        },
        { agentId: 'a' },
      ),
    );
    expect(record.toolCalls).toEqual([
      { name: 'lookup', input: { id: 42 }, output: { status: 'shipped' } },
      { name: 'lookup', input: { id: 43 }, output: { status: 'lost' } },
      { name: 'search', input: 'order 44', output: 'no results' },
      { name: 'refund', input: {}, output: '', error: 'timeout', success: false },
    ]);
    expect(record.usedTools).toBeUndefined();
  });

  it('parses followUpPrompts when they are JSON and keeps them otherwise', () => {
    expect(
      recordOf(normalizeFlowisePayload({ ...prediction, followUpPrompts: '["a","b"]' }, {})).followUpPrompts,
    ).toEqual(['a', 'b']);
    expect(
      recordOf(normalizeFlowisePayload({ ...prediction, followUpPrompts: '["a",' }, {})).followUpPrompts,
    ).toBe('["a",');
  });

  it('names the agent after the chatflow when neither the body nor the query does', () => {
    expect(recordOf(normalizeFlowisePayload({ ...prediction, chatflowId: 'flow-1' }, {})).agentId).toBe(
      'flow-1',
    );
  });

  it('returns a record without agentId when no agent can be named at all', () => {
    const record = recordOf(normalizeFlowisePayload(prediction, {}));
    expect('agentId' in record).toBe(false);
  });

  it('answers structured output (`json`) as JSON text', () => {
    const record = recordOf(normalizeFlowisePayload({ question: 'q', json: { total: 3 } }, { agentId: 'a' }));
    expect(record.response).toBe('{"total":3}');
  });

  it('turns numeric chat ids into text', () => {
    const record = recordOf(
      normalizeFlowisePayload({ question: 'q', text: 'r', chatId: 5 }, { agentId: 'a' }),
    );
    expect(record).toMatchObject({ chatId: '5', sessionId: '5' });
  });
});
