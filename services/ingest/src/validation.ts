import { InteractionRecord } from '@warden/shared/schemas/interaction';
import { compiledCheck } from '@warden/shared/http/validation';

// TypeBox validation as every Warden API runs it lives in shared/src/http/validation.ts.
export { compiledCheck, typeBoxValidatorCompiler, validatingBodyWith } from '@warden/shared/http/validation';

/**
 * The interaction record's check: the single-record route's body validator and the per-record check
 * of batch items and platform payloads (see admit.ts) are this one compiled function.
 */
export const recordCheck = compiledCheck(InteractionRecord);
