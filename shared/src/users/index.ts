export { hashPassword, verifyPassword, passwordProblem, MIN_PASSWORD_LENGTH } from './passwords';
export {
  UserDirectory,
  ROLES,
  isRole,
  findOrganisation,
  type Role,
  type Organisation,
  type CreatedUser,
} from './directory';
export {
  SessionStore,
  sha256Hex,
  type SessionCaller,
  type CreatedSession,
  type UserSession,
} from './sessions';
export { recordAudit, type AuditEntry } from './audit';
export { Invitations, INVITATION_TTL_MS, type Invitation } from './invitations';
export { Members, type Member } from './members';
