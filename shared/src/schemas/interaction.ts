import { Type, type Static } from '@sinclair/typebox';

/** Tool or function call made by the agent. Only `name` is required; platforms omit the rest. */
export const ToolCall = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Tool or function name.' }),
    description: Type.Optional(Type.String()),
    input: Type.Optional(Type.Unknown({ description: 'Arguments given to the tool (object or string).' })),
    output: Type.Optional(Type.Unknown({ description: 'Result of the tool (object or string).' })),
    execution_time_ms: Type.Optional(Type.Integer({ minimum: 0 })),
    success: Type.Optional(Type.Boolean()),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: true, $id: 'ToolCall' },
);
export type ToolCall = Static<typeof ToolCall>;

/** Known metadata keys are typed; any other key of any JSON type is kept as sent. */
export const Metadata = Type.Object(
  {
    timestamp: Type.Optional(Type.String({ description: 'ISO 8601 date-time in UTC.' })),
    platform: Type.Optional(Type.String()),
    environment: Type.Optional(Type.String()),
    model: Type.Optional(Type.String()),
    model_provider: Type.Optional(Type.String()),
    temperature: Type.Optional(Type.Number()),
    max_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    tokens_used: Type.Optional(Type.Integer({ minimum: 0 })),
    response_time_ms: Type.Optional(Type.Number({ minimum: 0 })),
    user_agent: Type.Optional(Type.String()),
    ip_address: Type.Optional(Type.String()),
    location: Type.Optional(Type.String()),
    language: Type.Optional(Type.String()),
    intent: Type.Optional(Type.String()),
    sentiment: Type.Optional(Type.String()),
    confidence_score: Type.Optional(Type.Number()),
    userId: Type.Optional(Type.String()),
    sessionId: Type.Optional(Type.String()),
    conversationId: Type.Optional(Type.String()),
  },
  { additionalProperties: true, $id: 'Metadata' },
);
export type Metadata = Static<typeof Metadata>;

/**
 * A string pattern refusing control characters (C0, DEL, C1): for text that names something and
 * travels in URLs, headers and logs, where NUL, CR or LF would cut or forge a line.
 */
export const noControlCharacters = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';

/** Bounds of an id field (agent, user, session, conversation, platform ids). */
const idLength = { minLength: 1, maxLength: 256 };

const id = (description: string) => Type.Optional(Type.String({ ...idLength, description }));

/** Ids a platform endpoint may carry at the top level. */
export const platformIdFields = {
  chatflowId: id('Flowise chatflow id.'),
  chatId: id('Flowise chat id.'),
  appId: id('Dify app id.'),
  workflowId: id('n8n workflow id.'),
  executionId: id('n8n execution id.'),
  nodeId: id('n8n node id.'),
};

/** The interaction record of the contract: agentId, prompt and response required. */
export const InteractionRecord = Type.Object(
  {
    agentId: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Agent identifier and dashboard name.',
    }),
    prompt: Type.String({ description: 'Input sent to the AI.' }),
    response: Type.String({ description: 'Output of the AI.' }),
    metadata: Type.Optional(Metadata),
    toolCalls: Type.Optional(Type.Array(ToolCall)),
    userId: id('End-user identifier.'),
    sessionId: id('Session identifier.'),
    conversationId: id('Conversation thread identifier.'),
    ...platformIdFields,
  },
  { additionalProperties: true, $id: 'InteractionRecord' },
);
export type InteractionRecord = Static<typeof InteractionRecord>;

const liftedIds = ['userId', 'sessionId', 'conversationId'] as const;

/**
 * Ids found only in metadata are lifted to the top level; metadata itself is kept as sent. The
 * record itself is returned when there is nothing to lift (ingest then stores the body's own text).
 * Only an id within the top-level field's bounds is lifted: the lifted record must still be an
 * InteractionRecord, since the consumers decode it against that schema.
 */
export function liftMetadataIds(record: InteractionRecord): InteractionRecord {
  const meta = record.metadata;
  if (!meta) return record;
  let lifted: InteractionRecord | undefined;
  for (const key of liftedIds) {
    const value = meta[key];
    if (record[key] !== undefined || (typeof value !== 'string' && typeof value !== 'number')) continue;
    const text = String(value);
    if (text.length < idLength.minLength || text.length > idLength.maxLength) continue;
    lifted ??= { ...record };
    lifted[key] = text;
  }
  return lifted ?? record;
}

/**
 * A platform lifecycle event that carries no prompt/response (Dify `message_end`, `workflow_finished`,
 * `conversation.started`, …): stored as an event instead of being rejected as an incomplete interaction.
 */
export const PlatformEvent = Type.Object(
  {
    agentId: Type.String({ minLength: 1, maxLength: 256, description: 'Agent the event belongs to.' }),
    eventType: Type.String({ minLength: 1, maxLength: 256, description: 'Event name as sent.' }),
    occurredAt: Type.Optional(Type.String({ description: 'ISO 8601 date-time in UTC.' })),
    userId: id('End-user identifier.'),
    sessionId: id('Session identifier.'),
    conversationId: id('Conversation thread identifier.'),
    ...platformIdFields,
    messageId: id('Platform message id.'),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The rest of the payload, as sent.' }),
  },
  { additionalProperties: false, $id: 'PlatformEvent' },
);
export type PlatformEvent = Static<typeof PlatformEvent>;
