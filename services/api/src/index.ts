// What other packages (tests, tooling) may use of the API: its app.
export { buildApp, type ApiDeps } from './app';
export {
  CSRF_COOKIE,
  CSRF_HEADER,
  PROJECT_HEADER,
  SESSION_COOKIE,
  type Caller,
  type Permission,
} from './caller';
