/**
 * The wire format: the only place that encodes and decodes what goes on each topic (key, headers,
 * value). Values are JSON checked against the TypeBox schemas in `schemas/`; a value that fails
 * decodes to the reason its dead letter carries.
 */
export type { Decoded } from './json-value';
export {
  decodeEnvelope,
  envelopeHeaders,
  envelopeMessage,
  partitionKey,
  recordAsSentMessage,
  type EnvelopeMessage,
} from './interactions';
export { analysisMessage, decodeAnalysis } from './detections';
export {
  DEAD_LETTER_REASONS,
  deadLetterMessage,
  decodeDeadLetter,
  type DeadLetter,
  type DeadLetterOrigin,
  type DeadLetterReason,
} from './dead-letters';
