export {
  AgentRegistry,
  AgentRegistryUnavailableError,
  type AgentAdmission,
  type AgentRegistryOptions,
  type AgentSeen,
} from './registry';
