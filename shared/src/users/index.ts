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
export { SessionStore, sha256Hex, type SessionCaller, type CreatedSession } from './sessions';
