import { describe, expect, it } from 'vitest';
import type { FuzzRequest } from './requests';
import { contractFromOpenApi, judge, type Secrets } from './verdict';
import { parseAnswers, type Outcome } from './wire';

/** The fuzz suite's oracle: it must catch what the suite claims to catch, and pass what is allowed. */
describe('fuzz verdict', () => {
  const errorSchema = {
    properties: {
      error: {
        properties: {
          code: {
            anyOf: ['INVALID_REQUEST', 'INVALID_API_KEY', 'RATE_LIMIT_EXCEEDED'].map((c) => ({ enum: [c] })),
          },
        },
      },
    },
  };
  const response = (description: string) => ({
    description,
    content: { 'application/json': { schema: errorSchema } },
  });
  const contract = contractFromOpenApi({
    paths: {
      '/api/v1/telemetry/ingest': {
        post: {
          responses: {
            '400': response('INVALID_REQUEST'),
            '401': response('INVALID_API_KEY'),
            '429': response('RATE_LIMIT_EXCEEDED'),
          },
        },
      },
    },
  });
  const key = 'wdn_live_0123456789abcdefghijABCDEFGHIJ0a1b2c';
  const secrets: Secrets = {
    keys: [key],
    keyIds: ['key_00000000000000000000'],
    accounts: { main: 'acct-main-1', free: 'acct-free-2' },
    internal: ['wardentest:fuzz:'],
  };
  const req: FuzzRequest = {
    kind: 'ingest',
    method: 'POST',
    path: '/api/v1/telemetry/ingest',
    headers: { authorization: `Bearer ${key}` },
    body: Buffer.from('{"agentId":"a","prompt":"node_modules","response":"r"}'),
    credential: 'main',
  };
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Outcome => ({
    kind: 'answered',
    ms: 1,
    answers: [
      {
        status,
        headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
        body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
      },
    ],
  });
  const rules = (outcome: Outcome) => judge(req, outcome, contract, secrets).map((p) => p.rule);

  it('passes documented answers', () => {
    expect(rules(answer(200, { status: 'success', interactionId: 'x', agentId: 'a' }))).toEqual([]);
    expect(rules(answer(400, { error: { code: 'INVALID_REQUEST', message: 'Fix it.' } }))).toEqual([]);
    expect(rules(answer(404, { error: { code: 'NOT_FOUND', message: 'No route.' } }))).toEqual([]);
    expect(
      rules(
        answer(
          429,
          { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.' } },
          { 'retry-after': '3' },
        ),
      ),
    ).toEqual([]);
    // What the client sent may come back: its own text is no leak of Warden's internals.
    expect(
      rules(answer(400, { error: { code: 'INVALID_REQUEST', message: 'Bad field "node_modules".' } })),
    ).toEqual([]);
  });

  it('catches 500s, framework bodies, wrong codes and missing Retry-After', () => {
    expect(rules(answer(500, { error: { code: 'INTERNAL_ERROR', message: 'x' } }))).toContain('500');
    expect(rules(answer(400, { error: 'Bad Request', message: 'Client Error', statusCode: 400 }))).toContain(
      'not the contract body',
    );
    expect(rules(answer(400, { error: { code: 'FST_ERR_BAD_URL', message: 'x' } }))).toContain(
      'undocumented code',
    );
    expect(rules(answer(401, { error: { code: 'INVALID_REQUEST', message: 'x' } }))).toContain(
      'code with the wrong status',
    );
    expect(rules(answer(429, { error: { code: 'RATE_LIMIT_EXCEEDED', message: 'x' } }))).toContain(
      '429 without Retry-After',
    );
    expect(rules(answer(302, ''))).toContain('status 302');
    expect(rules({ kind: 'no-answer', detail: 'closed by the server', ms: 1 })).toContain('no answer');
  });

  it('catches keys, key ids, other accounts, stack traces and internal names', () => {
    const leak = (message: string) => rules(answer(400, { error: { code: 'INVALID_REQUEST', message } }));
    expect(leak(`key ${key} is bad`)).toContain('leaks a key');
    expect(leak('key_00000000000000000000')).toContain('leaks a key');
    expect(leak('account acct-free-2')).toContain("leaks another account's id");
    expect(leak('account acct-main-1')).not.toContain("leaks another account's id");
    expect(leak('Error\n    at parse (/app/services/ingest/src/app.ts:10:5)')).toContain('leaks internals');
    expect(leak('prefix wardentest:fuzz:key:1')).toContain('leaks internals');
  });

  it('reads answers from raw bytes: Content-Length, chunked, one after another', () => {
    const bytes = Buffer.from(
      'HTTP/1.1 400 Bad Request\r\nContent-Length: 2\r\n\r\n{}' +
        'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n',
    );
    const answers = parseAnswers(bytes);
    expect(answers.map((a) => [a.status, a.body.toString()])).toEqual([
      [400, '{}'],
      [200, 'abcde'],
    ]);
  });
});
