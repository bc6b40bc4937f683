import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { PlatformEvent } from '../schemas/interaction';
import { difyThoughtToolCalls, normalizeDifyPayload } from './dify';
import type { Normalized } from './types';

function recordOf(out: Normalized): Record<string, unknown> {
  if (out.kind !== 'interaction') throw new Error(`expected an interaction, got ${out.kind}`);
  return out.record;
}

function eventOf(out: Normalized): PlatformEvent {
  if (out.kind !== 'event') throw new Error(`expected an event, got ${out.kind}`);
  expect(Value.Check(PlatformEvent, out.event)).toBe(true);
  return out.event;
}

const usage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  total_tokens: 15,
  total_price: '0.001',
  latency: 0.5,
};

describe('normalizeDifyPayload', () => {
  it('maps a blocking chat response: usage, created_at, mode, snake_case ids', () => {
    const record = recordOf(
      normalizeDifyPayload(
        {
          event: 'message',
          message_id: 'm-1',
          conversation_id: 'c-1',
          app_id: 'app-1',
          mode: 'advanced-chat',
          query: 'q',
          answer: 'a',
          metadata: { usage },
          created_at: 1763719200,
        },
        {},
      ),
    );
    expect(record).toMatchObject({
      agentId: 'app-1',
      appId: 'app-1',
      prompt: 'q',
      response: 'a',
      conversationId: 'c-1',
      message_id: 'm-1',
      event: 'message',
    });
    expect(record.metadata).toEqual({
      usage,
      tokens_used: 15,
      response_time_ms: 500,
      timestamp: '2025-11-21T10:00:00.000Z',
      conversation_mode: 'advanced-chat',
      platform: 'dify',
    });
  });

  it('keeps a sender-set timestamp and token count over the ones derived from Dify', () => {
    const record = recordOf(
      normalizeDifyPayload(
        {
          query: 'q',
          answer: 'a',
          metadata: { usage, tokens_used: 99, timestamp: '2026-01-01T00:00:00Z' },
          created_at: 1,
        },
        { agentId: 'x' },
      ),
    );
    expect(record.metadata).toMatchObject({
      tokens_used: 99,
      timestamp: '2026-01-01T00:00:00Z',
      response_time_ms: 500,
    });
    expect(record.created_at).toBe(1);
  });

  it('stores message_end as an event with the message id and usage', () => {
    const event = eventOf(
      normalizeDifyPayload(
        { event: 'message_end', task_id: 't', id: 'm-1', conversation_id: 'c-1', metadata: { usage } },
        { agentId: 'helpdesk' },
      ),
    );
    expect(event).toMatchObject({
      agentId: 'helpdesk',
      eventType: 'message_end',
      messageId: 'm-1',
      conversationId: 'c-1',
    });
    expect(event.data).toEqual({ task_id: 't', metadata: { usage, tokens_used: 15, response_time_ms: 500 } });
  });

  it('stores agent_thought as an event whose tool calls are split per tool', () => {
    const event = eventOf(
      normalizeDifyPayload(
        {
          event: 'agent_thought',
          id: 'th-1',
          message_id: 'm-1',
          conversation_id: 'c-1',
          position: 1,
          thought: 'I should search',
          tool: 'search;calculator',
          tool_input: '{"search": {"q": "weather"}, "calculator": {"expr": "1+1"}}',
          observation: '{"search": "sunny", "calculator": "2"}',
          created_at: 1763719200,
        },
        { agentId: 'helpdesk' },
      ),
    );
    expect(event).toMatchObject({
      eventType: 'agent_thought',
      messageId: 'm-1',
      occurredAt: '2025-11-21T10:00:00.000Z',
    });
    expect(event.data.toolCalls).toEqual([
      { name: 'search', input: { q: 'weather' }, output: 'sunny' },
      { name: 'calculator', input: { expr: '1+1' }, output: '2' },
    ]);
    expect(event.data.thought).toBe('I should search');
  });

  it('stores workflow_finished as an event with ids lifted from its run', () => {
    const event = eventOf(
      normalizeDifyPayload(
        {
          event: 'workflow_finished',
          task_id: 't',
          workflow_run_id: 'run-1',
          data: {
            id: 'run-1',
            workflow_id: 'wf-1',
            status: 'succeeded',
            outputs: { answer: 'done' },
            elapsed_time: 1.2,
            total_tokens: 40,
            created_at: 1763719200,
            finished_at: 1763719201,
          },
        },
        { agentId: 'helpdesk' },
      ),
    );
    expect(event).toMatchObject({
      eventType: 'workflow_finished',
      workflowId: 'wf-1',
      executionId: 'run-1',
      occurredAt: '2025-11-21T10:00:01.000Z',
    });
    expect(event.data.data).toMatchObject({ outputs: { answer: 'done' }, status: 'succeeded' });
  });

  it('stores workflow_started and node_finished as events', () => {
    const started = eventOf(
      normalizeDifyPayload(
        {
          event: 'workflow_started',
          workflow_run_id: 'run-1',
          data: { id: 'run-1', workflow_id: 'wf-1', created_at: 1 },
        },
        { agentId: 'a' },
      ),
    );
    expect(started).toMatchObject({
      eventType: 'workflow_started',
      workflowId: 'wf-1',
      executionId: 'run-1',
    });
    const node = eventOf(
      normalizeDifyPayload(
        {
          event: 'node_finished',
          workflow_run_id: 'run-1',
          data: { id: 'ne-1', node_id: 'llm', status: 'succeeded' },
        },
        { agentId: 'a' },
      ),
    );
    expect(node).toMatchObject({ eventType: 'node_finished', nodeId: 'llm', executionId: 'run-1' });
  });

  it.each(['conversation.started', 'conversation.completed', 'message.created', 'workflow.executed'])(
    'stores the contract event %s without text as an event',
    (eventType) => {
      const event = eventOf(
        normalizeDifyPayload(
          {
            event: eventType,
            agentId: 'helpdesk',
            appId: 'app-1',
            conversationId: 'c-1',
            userId: 'u-1',
            extra: true,
          },
          {},
        ),
      );
      expect(event).toEqual({
        agentId: 'helpdesk',
        eventType,
        appId: 'app-1',
        conversationId: 'c-1',
        userId: 'u-1',
        data: { extra: true },
      });
    },
  );

  it.each(['conversation.started', 'conversation.completed', 'message.created', 'workflow.executed'])(
    'keeps the contract event %s as an interaction when it carries the payload template',
    (eventType) => {
      const record = recordOf(
        normalizeDifyPayload(
          { event: eventType, agentId: 'helpdesk', prompt: 'p', response: 'r', appId: 'app-1' },
          {},
        ),
      );
      expect(record).toEqual({
        event: eventType,
        agentId: 'helpdesk',
        prompt: 'p',
        response: 'r',
        appId: 'app-1',
      });
    },
  );

  it('names the event agent after the app id when the body and the query do not', () => {
    expect(eventOf(normalizeDifyPayload({ event: 'message_end', app_id: 'app-1' }, {})).agentId).toBe(
      'app-1',
    );
  });

  it('returns an interaction without agentId for an event no agent can be found for', () => {
    const out = normalizeDifyPayload({ event: 'message_end', id: 'm-1' }, {});
    expect(out.kind).toBe('interaction');
    expect(recordOf(out).agentId).toBeUndefined();
  });

  it('returns an interaction for an event whose agentId has the wrong type, for validation to report', () => {
    const record = recordOf(normalizeDifyPayload({ event: 'message_end', agentId: 12 }, { agentId: 'q' }));
    expect(record.agentId).toBe(12);
  });
});

describe('difyThoughtToolCalls', () => {
  it('gives a lone tool the whole input, keyed or not', () => {
    expect(difyThoughtToolCalls('search', '{"search": {"q": "x"}}', 'found')).toEqual([
      { name: 'search', input: { q: 'x' }, output: 'found' },
    ]);
    expect(difyThoughtToolCalls('search', '{"q": "x"}', 'found')).toEqual([
      { name: 'search', input: { q: 'x' }, output: 'found' },
    ]);
  });

  it('keeps malformed tool input as text and ignores empty tool names', () => {
    expect(difyThoughtToolCalls('search;', '{"q": ', undefined)).toEqual([
      { name: 'search', input: '{"q": ' },
    ]);
    expect(difyThoughtToolCalls('', '{}', '')).toEqual([]);
    expect(difyThoughtToolCalls(undefined, '{}', '')).toEqual([]);
  });
});
