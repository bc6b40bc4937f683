import { Type, type Static, type TInteger, type TLiteral, type TUnion } from '@sinclair/typebox';
import { SCOPES } from '@warden/shared/keys/index';
import { ROLES } from '@warden/shared/users/index';
import { SEVERITIES, type Severity } from '@warden/shared/schemas/detection';

// The request and answer schemas of the API's routes: each one validates, types and documents.

export { errorResponses } from '@warden/shared/http/error-schema';

export const security: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }, { apiKey: [] }];

/** One of these strings: validated, typed and documented as a union of literals. */
// A tuple of literals, not one literal of a union: the type provider resolves only the former.
export const literals = <const V extends readonly string[]>(values: V) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<{
    -readonly [K in keyof V]: TLiteral<V[K]>;
  }>;

export const ProjectHeader = Type.Object({
  'x-warden-project': Type.Optional(
    Type.String({ description: 'The project to act on (sessions); an API key is bound to its own project.' }),
  ),
});

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const Me = Type.Object({
  kind: literals(['session', 'key']),
  user: Type.Optional(Type.Object({ userId: Type.String(), email: Type.String() })),
  organisationId: Type.Optional(Type.String()),
  role: Type.Optional(literals(ROLES)),
  sessionExpiresAt: Type.Optional(Type.String()),
  key: Type.Optional(
    Type.Object({ keyId: Type.String(), projectId: Type.String(), scopes: Type.Array(Type.String()) }),
  ),
});

export const LoginResult = Type.Object({
  user: Type.Object({ userId: Type.String(), email: Type.String() }),
  organisationId: Type.String(),
  role: literals(ROLES),
  /** Also in the warden_csrf cookie: echo it in x-csrf-token. */
  csrfToken: Type.String(),
  expiresAt: Type.String(),
});

const Scope = literals(SCOPES);

export const KeyListing = Type.Object({
  keyId: Type.String(),
  projectId: Type.String(),
  name: Type.Optional(Type.String()),
  scopes: Type.Array(Scope),
  hint: Type.String(),
  status: literals(['active', 'expiring', 'expired', 'revoked']),
  createdAt: Type.String(),
  createdBy: Type.Optional(Type.String({ description: 'Email of the user who created it, if a user did.' })),
  expiresAt: Type.Optional(Type.String()),
  revokedAt: Type.Optional(Type.String()),
  replacedBy: Type.Optional(Type.String()),
  usage: Type.Object({
    today: Type.Integer(),
    total: Type.Integer(),
    lastUsedAt: Type.Optional(Type.String()),
  }),
});

export const CreateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: SCOPES.length })),
    expiresAt: Type.Optional(
      Type.String({ description: 'ISO date-time after which the key fails as expired.' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateKeyBody = Static<typeof CreateKeyBody>;

export const CreatedKey = Type.Object({
  keyId: Type.String(),
  /** The only time the key is shown. */
  key: Type.String(),
  projectId: Type.String(),
  scopes: Type.Array(Scope),
  replacesKeyId: Type.Optional(Type.String()),
  previousKeyExpiresAt: Type.Optional(Type.String()),
});

export const RotateKeyBody = Type.Object(
  {
    gracePeriod: Type.Optional(
      Type.String({ description: 'How long the old key keeps working: 0, 30m, 24h (default), 7d.' }),
    ),
  },
  { additionalProperties: false },
);

export const KeyParams = Type.Object({ keyId: Type.String({ maxLength: 64 }) });

export const RevokedKey = Type.Object({
  keyId: Type.String(),
  status: Type.Literal('revoked'),
  revokedAt: Type.String(),
});

const RangeQuery = {
  from: Type.Optional(Type.String({ description: 'ISO date-time, inclusive (default: 24 h before `to`).' })),
  to: Type.Optional(Type.String({ description: 'ISO date-time, exclusive (default: now).' })),
};

export const OverviewQuery = Type.Object({
  ...RangeQuery,
  interval: Type.Optional(literals(['hour', 'day'])),
});

/** Findings per severity, every severity present. */
const BySeverity = Type.Object(
  Object.fromEntries(SEVERITIES.map((s) => [s, Type.Integer()])) as Record<Severity, TInteger>,
);

export const OverviewResult = Type.Object({
  projectId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  interval: literals(['hour', 'day']),
  totals: Type.Object({
    interactions: Type.Integer(),
    tokens: Type.Integer(),
    toolCalls: Type.Integer(),
    toolErrors: Type.Integer(),
    interactionsWithToolErrors: Type.Integer(),
    activeAgents: Type.Integer(),
    findings: Type.Integer(),
    flaggedInteractions: Type.Integer(),
    bySeverity: BySeverity,
    byThreatType: Type.Array(
      Type.Object({ threatType: Type.String(), findings: Type.Integer(), interactions: Type.Integer() }),
    ),
  }),
  series: Type.Array(
    Type.Object({
      bucket: Type.String(),
      interactions: Type.Integer(),
      tokens: Type.Integer(),
      findings: Type.Integer(),
      bySeverity: BySeverity,
    }),
  ),
});

export const DetectionsQuery = Type.Object({
  ...RangeQuery,
  agentId: Type.Optional(Type.String({ maxLength: 256 })),
  threatType: Type.Optional(Type.String({ maxLength: 64 })),
  severity: Type.Optional(literals(SEVERITIES)),
  ruleId: Type.Optional(Type.String({ maxLength: 128 })),
  userId: Type.Optional(Type.String({ maxLength: 256 })),
  sessionId: Type.Optional(Type.String({ maxLength: 256 })),
  conversationId: Type.Optional(Type.String({ maxLength: 256 })),
  cursor: Type.Optional(
    Type.String({ maxLength: 1024, description: 'The `nextCursor` of the previous page.' }),
  ),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1–1000, default 50.' })),
});
export type DetectionsQuery = Static<typeof DetectionsQuery>;

const Detection = Type.Object({
  findingId: Type.String(),
  interactionId: Type.String(),
  agentId: Type.String(),
  receivedAt: Type.String(),
  threatType: Type.String(),
  severity: literals(SEVERITIES),
  ruleId: Type.String(),
  detector: Type.String(),
  detectorVersion: Type.String(),
  confidence: Type.Number(),
  field: Type.String(),
  start: Type.Integer(),
  end: Type.Integer(),
  entityType: Type.String(),
  explanation: Type.String(),
  masked: Type.String(),
  userId: Type.String(),
  sessionId: Type.String(),
  conversationId: Type.String(),
});

export const DetectionsPage = Type.Object({
  items: Type.Array(Detection),
  nextCursor: Type.Optional(Type.String()),
});

export const InteractionParams = Type.Object({ interactionId: Type.String({ maxLength: 64 }) });

/** An interaction without its texts: what a list shows, and the head of one interaction's answer. */
const InteractionSummary = Type.Object({
  interactionId: Type.String(),
  agentId: Type.String(),
  receivedAt: Type.String(),
  endpoint: Type.String(),
  platform: Type.String(),
  userId: Type.String(),
  sessionId: Type.String(),
  conversationId: Type.String(),
  model: Type.String(),
  tokensUsed: Type.Integer(),
  responseTimeMs: Type.Integer(),
});

export const InteractionResult = Type.Object({
  ...InteractionSummary.properties,
  prompt: Type.String(),
  response: Type.String(),
  toolCalls: Type.Unknown(),
  metadata: Type.Unknown(),
  findings: Type.Array(
    Type.Object({
      findingId: Type.String(),
      detector: Type.String(),
      detectorVersion: Type.String(),
      ruleId: Type.String(),
      threatType: Type.String(),
      severity: literals(SEVERITIES),
      confidence: Type.Number(),
      field: Type.String(),
      start: Type.Integer(),
      end: Type.Integer(),
      view: Type.String(),
      entityType: Type.String(),
      explanation: Type.String(),
      masked: Type.String(),
    }),
  ),
});

const Id = (description: string) => Type.Optional(Type.String({ maxLength: 256, description }));

export const AgentsQuery = Type.Object(RangeQuery);

export const Agent = Type.Object({
  agentId: Type.String(),
  name: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  canaries: Type.Array(Type.String()),
  archived: Type.Boolean(),
  archivedAt: Type.Optional(Type.String()),
  /** Absent for an agent described in the API but never seen in data. */
  firstSeen: Type.Optional(Type.String()),
  lastSeen: Type.Optional(Type.String()),
  platforms: Type.Array(Type.String()),
  interactions: Type.Integer({ description: 'In the range.' }),
  findings: Type.Integer({ description: 'In the range.' }),
  bySeverity: BySeverity,
});

export const AgentsList = Type.Object({
  projectId: Type.String(),
  from: Type.String(),
  to: Type.String(),
  agents: Type.Array(Agent),
});

export const AgentParams = Type.Object({ agentId: Type.String({ minLength: 1, maxLength: 256 }) });

export const AgentPatchBody = Type.Object(
  {
    name: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
    canaries: Type.Optional(
      Type.Array(Type.String({ minLength: 4, maxLength: 256 }), {
        maxItems: 50,
        description: 'Canary tokens planted in this agent’s context: one in a response is a leak.',
      }),
    ),
    archived: Type.Optional(
      Type.Boolean({ description: 'Archived agents free their slot in the tier’s agent limit.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const ListFilters = {
  agentId: Id('Only this agent.'),
  userId: Id('Only this end user.'),
  sessionId: Id('Only this session.'),
  conversationId: Id('Only this conversation.'),
};

export const InteractionsQuery = Type.Object({
  ...RangeQuery,
  ...ListFilters,
  cursor: Type.Optional(
    Type.String({ maxLength: 1024, description: 'The `nextCursor` of the previous page.' }),
  ),
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1–1000, default 50.' })),
});

export const InteractionsPage = Type.Object({
  items: Type.Array(InteractionSummary),
  nextCursor: Type.Optional(Type.String()),
});

export const ExportQuery = Type.Object({
  ...RangeQuery,
  ...ListFilters,
  threatType: Type.Optional(Type.String({ maxLength: 64 })),
  severity: Type.Optional(literals(SEVERITIES)),
  ruleId: Type.Optional(Type.String({ maxLength: 128 })),
  format: Type.Optional(literals(['jsonl', 'csv'])),
});

export const KeyUsageQuery = Type.Object({
  days: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,3}$', description: '1–366 UTC days up to today; default 30.' }),
  ),
});

export const KeyUsage = Type.Object({
  keyId: Type.String(),
  from: Type.String({ description: 'First UTC day (YYYY-MM-DD).' }),
  to: Type.String({ description: 'Last UTC day, today.' }),
  total: Type.Integer({ description: 'Requests over these days.' }),
  days: Type.Array(Type.Object({ day: Type.String(), requests: Type.Integer() }), {
    description: 'Every day of the window, oldest first, 0 where the key was not used.',
  }),
});
