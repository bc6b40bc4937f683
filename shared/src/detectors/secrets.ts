import RE2 from 're2';
import { eachMatch, literalPattern, utf8Of, type Utf8Text } from './utf8-text';

/** One credential found in a raw text; `value` stays in memory, findings carry it masked. */
export interface SecretMatch {
  kind: string;
  ruleId: string;
  start: number;
  end: number;
  confidence: number;
  value: string;
}

interface SecretRule {
  kind: string;
  /**
   * Cheap literal that must be present before the regex runs (the multi-pattern prefilter). Every
   * match of `re` contains it, so a text without it is skipped with no change to the output; the
   * closer it is to the pattern's own start, the fewer texts run the pattern for nothing.
   */
  literal: string | RegExp;
  re: RE2;
  confidence: number;
  /** Capture group holding the secret itself (default: whole match). */
  group?: number;
  check?: (value: string) => boolean;
}

const g = (src: string, flags = 'g') => new RE2(src, flags);

function jwtLooksReal(v: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(v.split('.')[0]!, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    return typeof header.alg === 'string' || typeof header.typ === 'string';
  } catch {
    return false;
  }
}

/** Placeholders and examples that look like keys but are not: `${VAR}`, `<YOUR_KEY>`, `xxxx`, … */
export function isTemplateValue(v: string): boolean {
  return /\$\{|\{\{|<[^>]*>|%\(|^\$[A-Z_]|^(?:os\.environ|process\.env|env|secrets|vault|ssm)[.:/[(]|x{4,}|X{4,}|\*{3,}|\.{3}|your[_-]?|example|sample|dummy|placeholder|change[-_]?me|^generate[-_ ]|redacted|insert|replace|^(?:test|password|secret|token)$|(.)\1{5,}/i.test(
    v,
  );
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const c of counts.values()) {
    const p = c / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HASH = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/i;

const rules: SecretRule[] = [
  {
    kind: 'aws_access_key_id',
    literal: /A[KS]IA|ABIA|ACCA/,
    re: g('\\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b'),
    confidence: 0.95,
  },
  {
    kind: 'aws_secret_access_key',
    // The pattern's own head: "AWS_ACCESS_KEY_ID=AKIA…" holds "aws" but no secret/private after it.
    literal: /aws.{0,20}?(?:secret|private)/i,
    re: g('(?i)aws.{0,20}?(?:secret|private).{0,20}?[\'"]?\\s*[:=]\\s*[\'"]?([A-Za-z0-9/+=]{40})\\b'),
    group: 1,
    confidence: 0.9,
  },
  { kind: 'gcp_api_key', literal: 'AIza', re: g('\\bAIza[0-9A-Za-z_\\-]{35}\\b'), confidence: 0.9 },
  {
    kind: 'gcp_service_account_key',
    literal: 'service_account',
    re: g('"type"\\s*:\\s*"service_account"[^}]{0,1000}?"private_key"\\s*:\\s*"-----BEGIN'),
    confidence: 0.95,
  },
  {
    kind: 'azure_storage_key',
    literal: 'AccountKey=',
    re: g('AccountKey=([A-Za-z0-9+/]{86,88}={0,2})'),
    group: 1,
    confidence: 0.95,
  },
  {
    kind: 'azure_client_secret',
    literal: 'Q~',
    re: g(
      '(?:^|[^A-Za-z0-9_~.\\-])([A-Za-z0-9_~.\\-]{3}\\dQ~[A-Za-z0-9_~.\\-]{31,34})(?:$|[^A-Za-z0-9_~.\\-])',
    ),
    group: 1,
    confidence: 0.85,
  },
  {
    kind: 'github_token',
    literal: /gh[pousr]_|github_pat_/,
    re: g('\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\\b'),
    confidence: 0.97,
  },
  { kind: 'slack_token', literal: 'xox', re: g('\\bxox[abposr]-[A-Za-z0-9\\-]{10,}'), confidence: 0.95 },
  {
    kind: 'slack_webhook',
    literal: 'hooks.slack.com',
    re: g('https://hooks\\.slack\\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}'),
    confidence: 0.95,
  },
  {
    kind: 'stripe_key',
    literal: /[sr]k_(?:live|test)_/,
    re: g('\\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\\b'),
    confidence: 0.95,
  },
  {
    kind: 'anthropic_api_key',
    literal: 'sk-ant-',
    re: g('\\bsk-ant-(?:api|admin)?\\d{0,2}-?[A-Za-z0-9_\\-]{32,}'),
    confidence: 0.97,
  },
  {
    kind: 'openai_api_key',
    literal: 'sk-',
    re: g('\\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\\-]{20,}'),
    confidence: 0.9,
    check: (v) => !v.startsWith('sk-ant-') && /\d/.test(v) && /[A-Za-z]/.test(v.slice(3)),
  },
  {
    kind: 'warden_api_key',
    literal: 'wdn_',
    re: g('\\bwdn_(?:live|test)_[A-Za-z0-9]{32,40}\\b'),
    confidence: 0.97,
  },
  {
    kind: 'jwt',
    literal: 'eyJ',
    re: g('\\beyJ[A-Za-z0-9_\\-]{5,}\\.eyJ[A-Za-z0-9_\\-]{5,}\\.[A-Za-z0-9_\\-]{10,}'),
    confidence: 0.9,
    check: jwtLooksReal,
  },
  {
    kind: 'private_key',
    literal: 'PRIVATE KEY',
    re: g('-----BEGIN (?:RSA |EC |DSA |OPENSSH |PGP |ENCRYPTED )?PRIVATE KEY(?: BLOCK)?-----'),
    confidence: 0.98,
  },
  {
    kind: 'connection_string_password',
    // The scheme with its "://" (not "://" alone: every https URL has that, and none of them matches).
    literal:
      /(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|redis|rediss|amqps?|mssql|sqlserver|ftp|sftp|smtp|ldap):\/\//,
    re: g(
      '\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|ftp|sftp|smtp|ldap)://[^:/\\s@]{1,64}:([^@\\s/]{3,128})@[\\w.\\-]+',
    ),
    group: 1,
    confidence: 0.9,
  },
];

const GENERIC = g(
  '(?i)(?:api[_\\-]?key|apikey|secret(?:[_\\-]?key)?|client[_\\-]?secret|access[_\\-]?token|auth[_\\-]?token|bearer|token|passw(?:or)?d|pwd|private[_\\-]?key|credentials?)["\']?[ \\t]*(?:[:=]|=>|[ \\t](?:[ \\t]*(?:is|was)[ \\t:])?)[ \\t]*["\']?([A-Za-z0-9+/_\\-.=~!@#$%^&*]{12,200})',
);
/**
 * GENERIC's keyword and separator, the head of every GENERIC match: a bare keyword
 * ("AWS_ACCESS_KEY_ID", "tokens") no longer runs it. (With the value's first characters too, the
 * literal set's DFA grew and its pass cost more than the runs it saved.)
 */
const GENERIC_LITERAL =
  /(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|access[_-]?token|auth[_-]?token|bearer|token|passw(?:or)?d|pwd|private[_-]?key|credentials?)["']?[ \t]*(?:[:=]|=>|[ \t])/i;

/** A rule literal as RE2 source (a RegExp keeps its `i` flag). */
const literalSource = (lit: string | RegExp) =>
  typeof lit === 'string' ? literalPattern(lit) : (lit.flags.includes('i') ? '(?i)' : '') + lit.source;

/**
 * Every rule's literal and the generic keywords in one RE2.Set: a single pass over the text says
 * which rules can match at all, so no text is scanned once per rule.
 */
const LITERALS = new RE2.Set([...rules.map((r) => literalSource(r.literal)), literalSource(GENERIC_LITERAL)]);

/** Which rules' literals occur in `t` (index `rules.length`: the generic keywords); undefined when none do. */
function presentLiterals(t: Utf8Text): boolean[] | undefined {
  const hits = LITERALS.match(t.bytes);
  if (!hits.length) return undefined;
  const present = new Array<boolean>(rules.length + 1).fill(false);
  for (const k of hits) present[k] = true;
  return present;
}

/** Credentials in a raw text. Every rule first checks a cheap literal, then runs its RE2 pattern. */
export function findSecrets(raw: string): SecretMatch[] {
  const out: SecretMatch[] = [];
  const t = utf8Of(raw);
  const present = presentLiterals(t);
  if (!present) return out;
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    if (!present[i]) continue;
    eachMatch(r.re, t, (m) => {
      const value = r.group ? (m[r.group] ?? '') : m[0];
      const start = r.group ? m.index + m[0].lastIndexOf(value) : m.index;
      if (!value || isTemplateValue(value) || (r.check && !r.check(value))) return;
      out.push({
        kind: r.kind,
        ruleId: `secret.${r.kind}`,
        start,
        end: start + value.length,
        confidence: r.confidence,
        value,
      });
    });
  }
  if (present[rules.length]) {
    eachMatch(GENERIC, t, (m) => {
      const value = (m[1] ?? '').replace(/["',;.]+$/, '');
      const start = m.index + m[0].lastIndexOf(value);
      const end = start + value.length;
      if (out.some((o) => start < o.end && o.start < end)) return;
      if (value.length < 12 || isTemplateValue(value) || UUID.test(value) || HASH.test(value)) return;
      // Words, paths and prose are not secrets: require mixed character classes and high entropy.
      const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(value)).length;
      const h = entropy(value);
      if (classes < 2 || h < 3.3 || /^[a-z]+(?:[_\-.][a-z]+)*$/i.test(value)) return;
      const conf = h >= 4 && classes >= 3 ? 0.8 : 0.6;
      out.push({
        kind: 'generic_high_entropy',
        ruleId: 'secret.generic_assignment',
        start,
        end,
        confidence: conf,
        value,
      });
    });
  }
  return out;
}
