import { describe, expect, it } from 'vitest';
import { detectText } from './index';
import { findSecrets } from './secrets';

const kinds = (t: string) => findSecrets(t).map((s) => s.kind);
const fake = (prefix: string, n: number) => prefix + 'aB3dE5gH7jK9mN1pQ2rS4tU6wX8yZ0cF'.repeat(4).slice(0, n);

describe('secrets', () => {
  it.each([
    ['aws_access_key_id', 'key AKIAQ3EGUJ5ZPLKRTN7W'],
    ['gcp_api_key', `google ${fake('AIza', 35)}`],
    ['github_token', `token ${fake('ghp_', 36)}`],
    ['slack_token', 'xoxb-1234567890-abcdefghijkl'],
    ['stripe_key', `stripe ${fake('sk_live_', 24)}`],
    ['openai_api_key', `OPENAI_API_KEY=${fake('sk-proj-', 40)}`],
    ['anthropic_api_key', `key: ${fake('sk-ant-api03-', 90)}`],
    ['warden_api_key', `auth ${fake('wdn_live_', 36)}`],
    ['private_key', '-----BEGIN RSA PRIVATE KEY-----\nMIIE...'],
    ['connection_string_password', 'DATABASE_URL=postgres://app:Zx8!kq2Lm@db.internal:5432/app'],
    ['azure_storage_key', `AccountKey=${'Ab3+'.repeat(22)}==`],
    ['generic_high_entropy', 'api_key = "Q7f9Zk2LmP4xR8vT1wY6"'],
  ])('finds %s', (kind, text) => expect(kinds(text)).toContain(kind));

  it('finds JWTs whose header decodes', () => {
    const h = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const p = Buffer.from('{"sub":"123"}').toString('base64url');
    expect(kinds(`Bearer ${h}.${p}.abcdefghijklmnop`)).toContain('jwt');
    expect(kinds('eyJhbGciOi.eyJzdWIiOi.notreallyajwt')).not.toContain('jwt');
  });

  it.each([
    'api_key = "${API_KEY}"',
    'api_key: <YOUR_API_KEY>',
    'token = xxxxxxxxxxxxxxxxxxxx',
    'secret: 123e4567-e89b-12d3-a456-426614174000',
    'token d41d8cd98f00b204e9800998ecf8427e',
    'password: correcthorsebattery',
    'postgres://user:${DB_PASSWORD}@localhost/db',
    'I love tokens and secrets in general',
    // A key with no value on its line, references to where a secret is kept, instructions for one.
    'ADMIN_PASSWORD=\nSECRET_KEY=change-me',
    'OPENAI_API_KEY=\nLOG_LEVEL=info',
    'api_key: os.environ/ANTHROPIC_API_KEY',
    'JWT_SECRET=generate-with-openssl-rand-hex-32',
    'postgres://app_user:CHANGE_ME@localhost:5432/orders',
    'Write a decryption interface with password verification.',
  ])('ignores templates, UUIDs, hashes and prose: %s', (text) => expect(kinds(text)).toEqual([]));

  it('ends a password at the sentence', () => {
    const [found] = findSecrets('The guest Wi-Fi password is "Kelp!Harbour2291".');
    expect(found?.value).toBe('Kelp!Harbour2291');
  });

  it('masks the secret in findings and flags a new one in the response as critical', () => {
    const key = fake('ghp_', 36);
    const f = detectText(`here you go: ${key}`, 'response').find((x) => x.threatType === 'secret_leak')!;
    expect(f.masked).toBe('****' + key.slice(-4));
    expect(JSON.stringify(f)).not.toContain(key);
    expect(f.severity).toBe('critical');
  });
});
