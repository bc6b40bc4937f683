import { describe, expect, it } from 'vitest';
import { normalizePlatformPayload, platforms, type Normalized, type Platform } from './index';

function recordOf(out: Normalized): Record<string, unknown> {
  if (out.kind !== 'interaction') throw new Error(`expected an interaction, got ${out.kind}`);
  return out.record;
}

describe('platforms', () => {
  it('lists every endpoint segment', () => {
    expect([...platforms].sort()).toEqual(['custom', 'dify', 'flowise', 'n8n']);
  });
});

describe('normalizePlatformPayload', () => {
  it.each(platforms)('passes a canonical record through unchanged on %s', (platform) => {
    const body = { agentId: 'a', prompt: 'p', response: 'r', metadata: { model: 'm' }, extraField: [1, 2] };
    expect(recordOf(normalizePlatformPayload(platform, body, {}))).toEqual(body);
  });

  it.each(platforms)('turns numeric platform ids into text on %s', (platform) => {
    const body = {
      agentId: 'a',
      prompt: 'p',
      response: 'r',
      executionId: 1288,
      workflowId: 3,
      nodeId: 4,
      chatflowId: 5,
      chatId: 6,
      appId: 7,
      userId: 8,
      sessionId: 9,
      conversationId: 10,
    };
    expect(recordOf(normalizePlatformPayload(platform, body, {}))).toEqual({
      agentId: 'a',
      prompt: 'p',
      response: 'r',
      executionId: '1288',
      workflowId: '3',
      nodeId: '4',
      chatflowId: '5',
      chatId: '6',
      appId: '7',
      userId: '8',
      sessionId: '9',
      conversationId: '10',
    });
  });

  it('leaves a wrongly typed agentId, prompt or response for validation to report', () => {
    const record = recordOf(
      normalizePlatformPayload('custom', { agentId: 5, prompt: 6, response: null }, { agentId: 'q' }),
    );
    expect(record).toEqual({ agentId: 5, prompt: 6, response: null });
  });

  it('fills agentId from the query when the body has none (or an empty one)', () => {
    expect(
      recordOf(normalizePlatformPayload('custom', { prompt: 'p', response: 'r' }, { agentId: 'q' })).agentId,
    ).toBe('q');
    expect(
      recordOf(
        normalizePlatformPayload('custom', { agentId: '', prompt: 'p', response: 'r' }, { agentId: 'q' }),
      ).agentId,
    ).toBe('q');
  });

  it('does not invent an agent on the custom endpoint', () => {
    expect(
      'agentId' in recordOf(normalizePlatformPayload('custom', { prompt: 'p', response: 'r' }, {})),
    ).toBe(false);
    expect(
      'agentId' in
        recordOf(normalizePlatformPayload('custom', { prompt: 'p', response: 'r' }, { agentId: ' ' })),
    ).toBe(false);
  });

  it('normalises canonical tool calls of every family, leaving already-shaped ones alone', () => {
    const record = recordOf(
      normalizePlatformPayload(
        'custom',
        {
          agentId: 'a',
          prompt: 'p',
          response: 'r',
          toolCalls: [
            { name: 'kept', input: '{"raw":"string"}', output: 'x', execution_time_ms: 3 },
            { action: { tool: 'n8n', toolInput: { q: 1 } }, observation: '{"ok":true}' },
            { tool: 'flowise', toolInput: { q: 2 }, toolOutput: 'done' },
            { id: 'call_1', type: 'function', function: { name: 'openai', arguments: '{"q":3}' } },
            { name: 7 },
            'not an object',
            { nothing: 'recognisable' },
          ],
        },
        {},
      ),
    );
    expect(record.toolCalls).toEqual([
      { name: 'kept', input: '{"raw":"string"}', output: 'x', execution_time_ms: 3 },
      { name: 'n8n', input: { q: 1 }, output: { ok: true } },
      { name: 'flowise', input: { q: 2 }, output: 'done' },
      { name: 'openai', input: { q: 3 }, id: 'call_1', type: 'function' },
      { name: '7' },
      'not an object',
      { nothing: 'recognisable' },
    ]);
  });

  it('keeps malformed or scalar JSON strings as text', () => {
    const record = recordOf(
      normalizePlatformPayload(
        'n8n',
        {
          agentId: 'a',
          chatInput: 'q',
          output: 'r',
          intermediateSteps: [
            { action: { tool: 't', toolInput: '{"broken": ' }, observation: '[1, 2' },
            { action: { tool: 't', toolInput: '42' }, observation: 'true' },
          ],
        },
        {},
      ),
    );
    expect(record.toolCalls).toEqual([
      { name: 't', input: '{"broken": ', output: '[1, 2' },
      { name: 't', input: '42', output: 'true' },
    ]);
  });

  it('drops prototype keys from the body and nested values, and keeps embedded JSON with one as its string', () => {
    const body = JSON.parse(
      '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "agentId": "a",' +
        ' "prompt": "p", "response": "r", "metadata": {"__proto__": {"polluted": true}, "ok": 1},' +
        ' "toolCalls": [{"tool": "t", "toolInput": "{\\"__proto__\\": {\\"polluted\\": true}, \\"q\\": 1}"}]}',
    ) as Record<string, unknown>;
    const record = recordOf(normalizePlatformPayload('flowise', body, {}));
    expect(Object.keys(record).sort()).toEqual(['agentId', 'metadata', 'prompt', 'response', 'toolCalls']);
    expect(Object.keys(record.metadata as object)).toEqual(['ok']);
    const [call] = record.toolCalls as Record<string, unknown>[];
    // Embedded JSON is read with the limits of a body (see parseLimitedJson): refused, it stays text.
    expect(call?.input).toBe('{"__proto__": {"polluted": true}, "q": 1}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
  });

  const hostileJson = [
    ['5,000 levels of arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['a NUL', '{"q":"a\\u0000b"}'],
    ['a lone surrogate', '["\\ud800"]'],
    ['a __proto__ key', '{"a":{"__proto__":{"polluted":true}}}'],
    ['a constructor key', '[{"constructor":1}]'],
  ];

  it.each(hostileJson)('keeps embedded JSON with %s as the string sent, on every platform', (_name, text) => {
    const calls = (out: Normalized) =>
      (out.kind === 'interaction' ? out.record.toolCalls : out.event.data.toolCalls) as Array<
        Record<string, unknown>
      >;
    const flowise = normalizePlatformPayload(
      'flowise',
      { question: 'q', text: 'r', usedTools: [{ tool: 't', toolInput: text, toolOutput: text }] },
      { agentId: 'a' },
    );
    expect(calls(flowise)[0]).toMatchObject({ name: 't', input: text, output: text });
    const n8n = normalizePlatformPayload(
      'n8n',
      {
        chatInput: 'q',
        output: 'r',
        intermediateSteps: [{ action: { tool: 't', toolInput: text }, observation: text }],
      },
      { agentId: 'a' },
    );
    expect(calls(n8n)[0]).toMatchObject({ name: 't', input: text, output: text });
    const functionCall = normalizePlatformPayload(
      'custom',
      { agentId: 'a', prompt: 'p', response: 'r', toolCalls: [{ function: { name: 't', arguments: text } }] },
      {},
    );
    expect(calls(functionCall)[0]).toMatchObject({ name: 't', input: text });
    const dify = normalizePlatformPayload(
      'dify',
      { event: 'agent_thought', tool: 't', tool_input: text, observation: text },
      { agentId: 'a' },
    );
    expect(calls(dify)[0]).toEqual({ name: 't', input: text, output: text });
    const followUps = normalizePlatformPayload(
      'flowise',
      { question: 'q', text: 'r', followUpPrompts: text },
      { agentId: 'a' },
    );
    expect(recordOf(followUps).followUpPrompts).toBe(text);
  });

  it('parses embedded JSON up to the nesting a body may have', () => {
    const text = `{"q":${'['.repeat(31)}1${']'.repeat(31)}}`;
    const out = normalizePlatformPayload(
      'flowise',
      { question: 'q', text: 'r', usedTools: [{ tool: 't', toolInput: text }] },
      { agentId: 'a' },
    );
    expect((recordOf(out).toolCalls as Array<{ input: unknown }>)[0]!.input).toEqual(JSON.parse(text));
  });

  it('never mutates the body and shares no objects with it', () => {
    const body = {
      question: 'q',
      text: 'r',
      chatId: 3,
      usedTools: [{ tool: 't', toolInput: '{"a":1}', toolOutput: { deep: { x: 1 } } }],
      metadata: { nested: { y: 2 } },
    };
    const before = structuredClone(body);
    const record = recordOf(normalizePlatformPayload('flowise', body, { agentId: 'a' }));
    expect(body).toEqual(before);
    (record.metadata as { nested: { y: number } }).nested.y = 99;
    expect(body.metadata.nested.y).toBe(2);
  });

  const oddBodies: unknown[] = [
    {},
    { prompt: null, response: undefined },
    { event: '' },
    { event: 42, agentId: 'a' },
    { event: 'message_end', metadata: 'not an object', created_at: 'yesterday' },
    { event: 'agent_thought', agentId: 'a', tool: 5, tool_input: [], observation: {} },
    { event: 'workflow_finished', agentId: 'a', data: [1, 2], created_at: 1e300 },
    { query: { nested: true }, answer: ['x'], metadata: { usage: 'none' }, created_at: Number.MAX_VALUE },
    { question: 1, text: true, usedTools: 'none', followUpPrompts: 7, chatId: {} },
    { chatInput: [], output: null, intermediateSteps: [null, 1, { action: null }, { action: { tool: {} } }] },
    { toolCalls: { not: 'a list' }, metadata: null, agentId: { nested: 'x' } },
    [],
    null,
    'text',
  ];

  it.each(platforms)('never throws on odd input on %s', (platform) => {
    for (const body of oddBodies) {
      expect(() => normalizePlatformPayload(platform, body as Record<string, unknown>, {})).not.toThrow();
      expect(() =>
        normalizePlatformPayload(platform, body as Record<string, unknown>, { agentId: 'q' }),
      ).not.toThrow();
    }
    expect(() =>
      normalizePlatformPayload(platform, { prompt: 'p', response: 'r' }, undefined as never),
    ).not.toThrow();
  });

  it('survives absurdly deep nesting', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 5000; i += 1) deep = { a: deep };
    const out = normalizePlatformPayload('n8n', { agentId: 'a', chatInput: 'q', output: deep }, {});
    expect(out.kind).toBe('interaction');
  });

  it('treats an unknown platform as the plain contract record', () => {
    const out = normalizePlatformPayload(
      'zapier' as Platform,
      { question: 'q', text: 'r' },
      { agentId: 'a' },
    );
    expect(recordOf(out)).toEqual({ question: 'q', text: 'r', agentId: 'a' });
  });

  it('stores a named event without text as an event on every platform', () => {
    for (const platform of platforms) {
      const out = normalizePlatformPayload(
        platform,
        { event: 'started', sessionId: 7, timestamp: '2026-01-01T00:00:00Z' },
        {
          agentId: 'a',
        },
      );
      expect(out).toEqual({
        kind: 'event',
        event: {
          agentId: 'a',
          eventType: 'started',
          sessionId: '7',
          occurredAt: '2026-01-01T00:00:00.000Z',
          data: {},
        },
      });
    }
  });
});
