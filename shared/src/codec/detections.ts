/** `warden.detections.v1`: one analysis per analysed interaction, as the detector writes it. */
import { TypeCompiler } from '@sinclair/typebox/compiler';
import type { Message } from 'kafkajs';
import { DetectionAnalysis, type AnalysisMessage } from '../schemas/detection';
import { checkValue, parseJsonObject, type Decoded } from './json-value';

/**
 * The analysis as a message of `warden.detections.v1`, under `key`, the key of the interaction it
 * analyses (one conversation stays in order), with headers to route by without parsing.
 */
export function analysisMessage(analysis: AnalysisMessage, key: Buffer | string | null): Message {
  return {
    key,
    value: JSON.stringify(analysis),
    headers: {
      'account-id': analysis.accountId,
      'agent-id': analysis.agentId,
      'interaction-id': analysis.interactionId,
      'detector-version': analysis.detectorVersion,
      'finding-count': String(analysis.findings.length),
    },
  };
}

const analysisCheck = TypeCompiler.Compile(DetectionAnalysis);

/**
 * Decodes one message of `warden.detections.v1` as the analysis it carries, checked against its
 * schema. The alerts beside it are left as they are: they are the alert sender's to read.
 */
export function decodeAnalysis(value: Buffer | null): Decoded<DetectionAnalysis> {
  const parsed = parseJsonObject(value);
  return parsed.ok ? checkValue(parsed.value, analysisCheck, 'an analysis') : parsed;
}
