import type { FuzzRequest } from './requests';
import type { Answer, Outcome } from './wire';

/**
 * What an answer to any request may be: 2xx, or a documented error status with the contract's body
 * `{"error": {"code", "message", "details"?}}` and a documented code; never a 500; never a stack
 * trace, file path, API key, key hash, another account's id or an internal name.
 */

/** The statuses ingest documents (README, docs/security.md); anything else is a failure. */
export const allowedStatuses = new Set([
  200, 207, 400, 401, 403, 404, 408, 409, 413, 414, 415, 429, 431, 503,
]);

/** Error codes the API documents, each with the statuses it is documented under (empty: any error status). */
export type Contract = Map<string, Set<number>>;

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, OpenApiResponse> }>>;
}
interface OpenApiResponse {
  description?: string;
  content?: {
    'application/json'?: { schema?: { properties?: { error?: { properties?: { code?: CodeSchema } } } } };
  };
}
interface CodeSchema {
  anyOf?: Array<{ const?: string; enum?: string[] }>;
  enum?: string[];
}

/**
 * The contract as ingest's OpenAPI document states it: the error schema's codes, and per route the
 * codes each status carries (the response's description). Codes added to the schema later are
 * accepted without a test change. NOT_FOUND is the not-found handler's, outside every route.
 */
export function contractFromOpenApi(doc: OpenApiDocument): Contract {
  const contract: Contract = new Map([['NOT_FOUND', new Set([404])]]);
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const code = response.content?.['application/json']?.schema?.properties?.error?.properties?.code;
        if (!code) continue;
        const codes = [
          ...(code.enum ?? []),
          ...(code.anyOf ?? []).flatMap((c) => c.enum ?? (c.const ? [c.const] : [])),
        ];
        for (const c of codes) if (!contract.has(c)) contract.set(c, new Set());
        for (const c of (response.description ?? '').split(/,\s*/)) contract.get(c)?.add(Number(status));
      }
    }
  }
  return contract;
}

export interface Secrets {
  /** Every API key the run made; none may appear in an answer. */
  keys: string[];
  /** Their SHA-256 hashes and key ids. */
  keyIds: string[];
  /** Account id of each credential; an answer may name only the caller's. */
  accounts: Partial<Record<FuzzRequest['credential'], string>>;
  /** Names only the inside knows: the Redis prefix, topic names. */
  internal: string[];
}

/** Text that marks a stack trace or a source path, unless the client sent it itself. */
const traceMarkers = [
  '    at ',
  'node_modules',
  '/services/',
  '/shared/src',
  'file:///',
  '.ts:',
  process.cwd(),
];

export interface Problem {
  /** A short rule name, to group problems in the summary. */
  rule: string;
  detail: string;
}

/** The problems with one outcome; none means the answer is what the contract allows. */
export function judge(req: FuzzRequest, outcome: Outcome, contract: Contract, secrets: Secrets): Problem[] {
  if (outcome.kind === 'no-answer') {
    return req.mayClose && outcome.detail === 'closed by the server'
      ? []
      : [{ rule: 'no answer', detail: outcome.detail }];
  }
  return outcome.answers.flatMap((answer) => judgeAnswer(req, answer, contract, secrets));
}

function judgeAnswer(req: FuzzRequest, answer: Answer, contract: Contract, secrets: Secrets): Problem[] {
  const problems: Problem[] = [];
  const { status } = answer;
  const text = answer.body.toString('utf8');
  if (status === 500) problems.push({ rule: '500', detail: text.slice(0, 300) });
  else if (!allowedStatuses.has(status))
    problems.push({ rule: `status ${status}`, detail: text.slice(0, 300) });
  problems.push(...leaks(req, answer, text, secrets));
  if (req.method === 'HEAD') return problems;

  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push({ rule: 'not JSON', detail: `${status} ${JSON.stringify(text.slice(0, 200))}` });
    return problems;
  }
  if (status >= 200 && status < 300) {
    problems.push(...judgeSuccess(status, body, contract));
    return problems;
  }
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) {
    problems.push({ rule: 'error not application/json', detail: `${status} content-type "${contentType}"` });
  }
  problems.push(...judgeError(status, body, contract));
  if ((status === 429 || status === 503) && !/^\d+$/.test(String(answer.headers['retry-after'] ?? ''))) {
    problems.push({ rule: `${status} without Retry-After`, detail: text.slice(0, 200) });
  }
  return problems;
}

/** The contract's error body, with a documented code that goes with this status. */
function judgeError(status: number, body: unknown, contract: Contract, where = ''): Problem[] {
  const shown = JSON.stringify(body).slice(0, 300);
  if (!isObject(body) || Object.keys(body).join() !== 'error' || !isObject(body.error)) {
    return [{ rule: 'not the contract body', detail: `${where}${status} ${shown}` }];
  }
  const { code, message, details } = body.error;
  const problems: Problem[] = [];
  if (typeof code !== 'string' || !contract.has(code)) {
    problems.push({ rule: 'undocumented code', detail: `${where}${status} ${shown}` });
  } else {
    const statuses = contract.get(code)!;
    if (statuses.size > 0 && !statuses.has(status)) {
      problems.push({ rule: 'code with the wrong status', detail: `${where}${status} ${code}` });
    }
  }
  if (typeof message !== 'string' || message.trim() === '') {
    problems.push({ rule: 'error without a message', detail: `${where}${status} ${shown}` });
  }
  if (
    details !== undefined &&
    (!isObject(details) || !Object.values(details).every((v) => typeof v === 'string'))
  ) {
    problems.push({ rule: 'details not {field, expected, received}', detail: `${where}${status} ${shown}` });
  }
  return problems;
}

/** 200 for one record or event, 200/207 for a batch with one result per index. */
function judgeSuccess(status: number, body: unknown, contract: Contract): Problem[] {
  const shown = JSON.stringify(body).slice(0, 300);
  if (!isObject(body)) return [{ rule: 'success body not an object', detail: shown }];
  if (Array.isArray(body.results)) {
    const problems: Problem[] = [];
    if ((status === 207) !== (body.status === 'partial'))
      problems.push({ rule: 'batch status mismatch', detail: `${status} ${shown}` });
    for (const item of body.results) {
      if (!isObject(item)) problems.push({ rule: 'batch item not an object', detail: shown });
      else if (item.status === 'rejected')
        problems.push(
          ...judgeError(
            400,
            { error: item.error },
            batchItemContract(contract),
            `item ${String(item.index)}: `,
          ),
        );
      else if (typeof item.interactionId !== 'string')
        problems.push({ rule: 'accepted item without interactionId', detail: shown });
    }
    return problems;
  }
  if (status !== 200 || body.status !== 'success' || typeof body.interactionId !== 'string')
    return [{ rule: 'not the success body', detail: `${status} ${shown}` }];
  return [];
}

/** A rejected batch item carries the error its record alone would get: any documented 4xx code. */
function batchItemContract(contract: Contract): Contract {
  return new Map([...contract].map(([code]) => [code, new Set<number>()]));
}

function leaks(req: FuzzRequest, answer: Answer, text: string, secrets: Secrets): Problem[] {
  const problems: Problem[] = [];
  const all = `${JSON.stringify(answer.headers)}\n${text}`;
  const presented = [req.headers.authorization, req.headers['x-api-key']]
    .flatMap((v) => (v ? v.split(/\s+/) : []))
    .filter((v) => v.length >= 16);
  for (const secret of [...secrets.keys, ...secrets.keyIds, ...presented]) {
    if (all.includes(secret))
      problems.push({ rule: 'leaks a key', detail: `${secret.slice(0, 12)}… in ${answer.status}` });
  }
  const caller = secrets.accounts[req.credential];
  for (const account of Object.values(secrets.accounts)) {
    if (account !== caller && all.includes(account))
      problems.push({ rule: "leaks another account's id", detail: `${account} in ${answer.status}` });
  }
  // What the client sent may come back (a field name, a JSON parse error's excerpt); nothing else.
  const sent = `${req.path}\n${(req.plain ?? req.body ?? req.raw ?? Buffer.alloc(0)).toString('utf8')}`;
  for (const marker of [...traceMarkers, ...secrets.internal]) {
    if (all.includes(marker) && !sent.includes(marker))
      problems.push({
        rule: 'leaks internals',
        detail: `"${marker}" in ${answer.status}: ${text.slice(0, 200)}`,
      });
  }
  return problems;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
