import { Type } from '@sinclair/typebox';
import { TIERS } from '@warden/shared/keys/index';
import { ROLES } from '@warden/shared/users/index';
import { literals } from './schemas';

// Request and answer schemas of the management routes: projects, members, invitations, account.

const Role = literals(ROLES);
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });

const Limits = Type.Object(
  {
    ratePerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
    burst: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000_000 })),
    agentLimit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  },
  { additionalProperties: false, description: "Overrides of the tier's defaults." },
);

const Settings = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
  description: 'Free-form project settings (a JSON object of at most 16 KiB).',
});

export const Project = Type.Object({
  projectId: Type.String(),
  name: Type.String(),
  tier: literals(TIERS),
  limits: Type.Optional(Limits),
  settings: Settings,
  createdAt: Type.String(),
  activeKeys: Type.Integer(),
  effectiveLimits: Type.Object(
    { ratePerMinute: Type.Number(), burst: Type.Number(), agentLimit: Type.Number() },
    { description: "The limits in force: the tier's defaults with the project's overrides on top." },
  ),
  usage: Type.Object(
    {
      agents: Type.Integer({ description: 'Agents counted against agentLimit now (archived ones are not).' }),
      activeKeys: Type.Integer(),
    },
    { description: 'Current usage, beside the limits.' },
  ),
});

export const ProjectParams = Type.Object({ projectId: Id('A project id.') });

export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    tier: Type.Optional(literals(TIERS)),
    limits: Type.Optional(Limits),
  },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    settings: Type.Optional(Settings),
    tier: Type.Optional(literals(TIERS)),
    limits: Type.Optional(Limits),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Member = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.Optional(Type.String()),
  role: Role,
  joinedAt: Type.String(),
});

export const MemberParams = Type.Object({ userId: Id('A user id.') });

export const UpdateMemberBody = Type.Object({ role: Role }, { additionalProperties: false });

export const Invitation = Type.Object({
  invitationId: Type.String(),
  email: Type.String(),
  role: Role,
  invitedBy: Type.Optional(Type.String()),
  createdAt: Type.String(),
  expiresAt: Type.String(),
  status: literals(['pending', 'accepted', 'revoked', 'expired']),
});

export const CreatedInvitation = Type.Composite([
  Invitation,
  Type.Object({
    /** The only time the token is shown. */
    token: Type.String(),
    link: Type.String({ description: 'Path of the page that accepts the invitation: /invite/<token>.' }),
  }),
]);

export const CreateInvitationBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), role: Role },
  { additionalProperties: false },
);

export const InvitationParams = Type.Object({ invitationId: Id('An invitation id.') });

export const InvitationTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 256 }) });

export const AcceptInvitationBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const AuthConfig = Type.Object({
  signup: literals(['open', 'invite', 'closed']),
  firstUser: Type.Boolean({
    description: 'True on a fresh install: the first user may sign up whatever the mode.',
  }),
});

export const SignupBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    organisation: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export const ChangePasswordBody = Type.Object(
  {
    current: Type.String({ minLength: 1, maxLength: 1024 }),
    new: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 256 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const UserSession = Type.Object({
  sessionId: Type.String(),
  createdAt: Type.String(),
  lastSeenAt: Type.String(),
  expiresAt: Type.String(),
  address: Type.Optional(Type.String()),
  userAgent: Type.Optional(Type.String()),
  current: Type.Boolean(),
});

export const SessionParams = Type.Object({ sessionId: Id('A session id (GET /api/v1/me/sessions).') });

export const NoContent = { type: 'null', description: 'Done.' } as const;
