export {
  AgentRegistry,
  AgentRegistryUnavailableError,
  type AgentAdmission,
  type AgentRegistryOptions,
  type AgentSeen,
} from './registry';
export { AgentDirectory, type AgentProfile, type AgentProfileChange } from './directory';
