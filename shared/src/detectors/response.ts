import RE2 from 're2';
import { detectorVersion, maskValue, roundConfidence, severityFor, type Finding } from './finding';
import { eachMatch, nextMatch, utf8Of } from './utf8-text';
import { rawSpan, type FieldViews } from './views';

/** Canary tokens echoed anywhere an agent writes: the response, tool inputs, hidden in any view. */
export function detectCanaries(fv: FieldViews, field: string, canaries: readonly string[]): Finding[] {
  const out: Finding[] = [];
  for (const token of canaries) {
    if (!token || token.length < 4) continue;
    const lower = token.toLowerCase();
    let hit: { start: number; end: number; view: string } | undefined;
    const at = fv.raw.indexOf(token);
    if (at >= 0) hit = { start: at, end: at + token.length, view: 'raw' };
    else {
      for (const v of fv.views) {
        const i = v.text.indexOf(lower);
        if (i < 0) continue;
        const [start, end] = rawSpan(v, i, i + lower.length);
        hit = { start, end, view: v.name };
        break;
      }
    }
    if (!hit) continue;
    out.push({
      detector: 'response',
      detectorVersion,
      ruleId: 'canary.echo',
      threatType: 'canary_leak',
      severity: 'critical',
      confidence: hit.view === 'raw' ? 0.99 : 0.95,
      field,
      ...hit,
      masked: maskValue(token),
      explanation: `a configured canary token appears in ${field}${hit.view === 'raw' ? '' : ` (in the ${hit.view} view)`}: the system prompt or a protected document leaked`,
    });
  }
  return out;
}

function words(text: string): Array<{ w: string; start: number; end: number }> {
  const out: Array<{ w: string; start: number; end: number }> = [];
  const re = /[\p{L}\p{N}]+/gu;
  for (let m = re.exec(text); m; m = re.exec(text))
    out.push({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  return out;
}

const SHINGLE = 6;

/** Verbatim runs of the system prompt in the response (6-word shingles), when the prompt is known. */
function systemPromptOverlap(raw: string, systemPrompt: string, field: string): Finding | undefined {
  const sp = words(systemPrompt);
  if (sp.length < SHINGLE) return undefined;
  const shingles = new Set<string>();
  for (let i = 0; i + SHINGLE <= sp.length; i++)
    shingles.add(
      sp
        .slice(i, i + SHINGLE)
        .map((x) => x.w)
        .join(' '),
    );
  const rw = words(raw);
  let matched = 0;
  let first = -1;
  let last = -1;
  for (let i = 0; i + SHINGLE <= rw.length; i++) {
    if (
      !shingles.has(
        rw
          .slice(i, i + SHINGLE)
          .map((x) => x.w)
          .join(' '),
      )
    )
      continue;
    matched++;
    if (first < 0) first = rw[i]!.start;
    last = rw[i + SHINGLE - 1]!.end;
  }
  if (matched === 0) return undefined;
  const coverage = matched / shingles.size;
  if (matched < 2 && coverage < 0.5) return undefined;
  const conf = roundConfidence(Math.min(0.98, 0.55 + coverage * 0.8 + Math.min(matched, 20) * 0.01));
  return {
    detector: 'response',
    detectorVersion,
    ruleId: 'leak.system_prompt_overlap',
    threatType: 'system_prompt_leak',
    severity: severityFor(conf, coverage >= 0.3 ? 'critical' : 'high'),
    confidence: conf,
    field,
    start: first,
    end: last,
    view: 'raw',
    explanation: `response repeats ${Math.round(coverage * 100)}% of the system prompt verbatim (${matched} six-word runs)`,
  };
}

const LEAK_PHRASES_SRC =
  '(?:my\\s+(?:system\\s+prompt|(?:initial\\s+|hidden\\s+|original\\s+|secret\\s+)?instructions)|the\\s+(?:system\\s+prompt|(?:initial|hidden|original)\\s+instructions))\\s+(?:is|are|says?|reads?)\\s*:?|(?:here\\s+(?:is|are)|below\\s+(?:is|are))\\s+my\\s+(?:system\\s+prompt|instructions|initial\\s+prompt)|i\\s+was\\s+(?:instructed|told|programmed)\\s+(?:by\\s+my\\s+developers?\\s+)?to\\s*:|^\\s*you\\s+are\\s+(?:chatgpt|claude|an?\\s+ai\\s+assistant)[^.\\n]{0,80}(?:trained|created|developed)\\s+by';
const LEAK_PHRASES = new RE2(LEAK_PHRASES_SRC, 'gimu');

// A line (or sentence) of assistant configuration, as a system prompt words it: a persona addressed
// in the second person, or a rule about what the assistant may reveal, discuss or answer.
const LINE_START = '(?:^|[\\n.!?:]\\s*)[ \\t]*(?:\\d{1,2}[.)]\\s*|[-*•]\\s*)?';
const CONFIG_PERSONA_SRC =
  LINE_START +
  "you\\s+are\\s+(?:now\\s+)?(?:an?\\s+|the\\s+)?[\\w', -]{0,50}?\\b(?:assistant|bot|chatbot|agent|gpt|ai|model|tutor|concierge|advisor|adviser|expert|companion|guide)\\b";
const CONFIG_PERSONA = new RE2(CONFIG_PERSONA_SRC, 'gimu');
const CONFIG_RULE_SRC =
  LINE_START +
  "(?:(?:never|do\\s+not|don't|always|only|keep|refuse)\\s+(?:reveal|disclose|share|discuss|answer|respond|give|mention|tell|follow|refuse|keep|answers|requests|your)|if\\s+the\\s+user\\s+(?:asks|says|wants|requests)|under\\s+no\\s+circumstances)\\b";
const CONFIG_RULE = new RE2(CONFIG_RULE_SRC, 'gimu');
// A secret the assistant was told to keep, echoed: "the secret password is TANGERINE-42".
const SECRET_ECHO_SRC =
  '\\b(?:secret|access\\s+code|pass(?:word|code|phrase)|secret\\s+(?:key|code|word))\\b(?:\\s+[A-Za-z]+){0,7}?\\s+(?:is|was)\\s*:?\\s*["\'`“]?([A-Za-z0-9_-]*[0-9A-Z][A-Za-z0-9_-]*)';
const SECRET_ECHO = new RE2(SECRET_ECHO_SRC, 'gmu');

/**
 * The four leak patterns above in one RE2.Set: a single native pass over a response says which of
 * them match anywhere, and only those run (most responses match none, and each pattern alone is a
 * full pass over the text: four passes became one). Same flags as the patterns: multi-line for all,
 * case-insensitive (inline `(?i)`) for all but SECRET_ECHO. A pattern the set rules out cannot
 * match, so skipping it changes nothing. Indices follow the list: phrases, persona, rule, secret echo.
 */
const LEAK_GATE = new RE2.Set(
  [`(?i)${LEAK_PHRASES_SRC}`, `(?i)${CONFIG_PERSONA_SRC}`, `(?i)${CONFIG_RULE_SRC}`, SECRET_ECHO_SRC],
  'mu',
);
/** Which leak patterns can match `raw` (by LEAK_GATE index); all of them when the set gives up. */
function leakCandidates(raw: string): boolean[] {
  try {
    const can = [false, false, false, false];
    for (const k of LEAK_GATE.match(utf8Of(raw).bytes)) can[k] = true;
    return can;
  } catch {
    return [true, true, true, true];
  }
}
const NO_MATCHES = { n: 0, first: -1, last: -1 };

function countMatches(re: RE2, raw: string, max: number): { n: number; first: number; last: number } {
  let n = 0;
  let first = -1;
  let last = -1;
  re.lastIndex = 0;
  for (let m = nextMatch(re, utf8Of(raw)); m && n < max; m = nextMatch(re, utf8Of(raw))) {
    n++;
    if (first < 0) first = m.index;
    last = m.index + m[0].length;
  }
  return { n, first, last };
}

/**
 * Canary-free signs that a response discloses the assistant's own configuration: it speaks its
 * persona in the second person beside rules about what to reveal or answer (a verbatim rule list),
 * or it echoes a secret value it was told to keep.
 */
function configurationLeak(raw: string, field: string, can: boolean[]): Finding | undefined {
  const persona = can[1] ? countMatches(CONFIG_PERSONA, raw, 3) : NO_MATCHES;
  const rules = can[2] ? countMatches(CONFIG_RULE, raw, 6) : NO_MATCHES;
  const leak = (persona.n >= 1 && rules.n >= 1) || rules.n >= 3;
  if (leak) {
    const starts = [persona.first, rules.first].filter((x) => x >= 0);
    const conf = roundConfidence(Math.min(0.9, 0.55 + 0.08 * (persona.n + rules.n)));
    return {
      detector: 'response',
      detectorVersion,
      ruleId: 'leak.configuration_text',
      threatType: 'system_prompt_leak',
      severity: severityFor(conf, 'high'),
      confidence: conf,
      field,
      start: Math.min(...starts),
      end: Math.max(persona.last, rules.last),
      view: 'raw',
      explanation: `response reads like assistant configuration (${persona.n} persona line(s) addressed to the assistant, ${rules.n} rule(s) about what it may reveal or answer)`,
    };
  }
  if (!can[3]) return undefined;
  SECRET_ECHO.lastIndex = 0;
  const m = nextMatch(SECRET_ECHO, utf8Of(raw));
  const value = m?.[1] ?? '';
  // A value, not a word: at least five characters with a digit, or upper case with a digit or dash.
  if (!m || value.length < 5 || !(/\d/.test(value) || /^[A-Z]+[-_][A-Z0-9]/.test(value))) return undefined;
  return {
    detector: 'response',
    detectorVersion,
    ruleId: 'leak.secret_echo',
    threatType: 'system_prompt_leak',
    severity: 'high',
    confidence: 0.7,
    field,
    start: m.index,
    end: m.index + m[0].length,
    view: 'raw',
    masked: maskValue(value),
    explanation: 'response discloses a secret, password or access code (a value it was likely told to keep)',
  };
}

/** System-prompt leakage: verbatim overlap when the prompt is known, tell-tale phrasing otherwise. */
export function detectSystemPromptLeak(fv: FieldViews, field: string, systemPrompt?: string): Finding[] {
  const out: Finding[] = [];
  if (systemPrompt) {
    const f = systemPromptOverlap(fv.raw, systemPrompt, field);
    if (f) out.push(f);
  }
  const can = leakCandidates(fv.raw);
  LEAK_PHRASES.lastIndex = 0;
  const m = can[0] ? nextMatch(LEAK_PHRASES, utf8Of(fv.raw)) : null;
  if (m && out.length === 0) {
    out.push({
      detector: 'response',
      detectorVersion,
      ruleId: 'leak.system_prompt_phrase',
      threatType: 'system_prompt_leak',
      severity: 'medium',
      confidence: 0.6,
      field,
      start: m.index,
      end: m.index + m[0].length,
      view: 'raw',
      explanation: 'response announces or quotes its system prompt / hidden instructions',
    });
  }
  if (out.length === 0) {
    const f = configurationLeak(fv.raw, field, can);
    if (f) out.push(f);
  }
  return out;
}

const MD_LINK = new RE2(
  '(!?)\\[[^\\]\\n]{0,200}\\]\\(\\s*<?(https?://[^)\\s>]{1,1000})>?(?:\\s+"[^"\\n]{0,200}")?\\s*\\)',
  'gi',
);
const HTML_IMG = new RE2('<img\\b[^>]{0,300}?\\bsrc\\s*=\\s*["\']?(https?://[^"\'\\s>]{1,1000})', 'gi');
const HTML_IMG_TAG = /<img/i;
const REF_IMG = new RE2('^\\s*\\[[^\\]\\n]{1,100}\\]:\\s*(https?://\\S{1,1000})', 'gim');

/** How much data a URL carries in its query/fragment/path: long or encoded values are the tell. */
function payloadOf(url: string): { score: number; why: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { score: 0, why: '' };
  }
  let best = 0;
  let why = '';
  const consider = (v: string, where: string) => {
    const len = v.length;
    const encoded = /^[A-Za-z0-9+/_-]{24,}={0,2}$/.test(v) || /%[0-9A-Fa-f]{2}.*%[0-9A-Fa-f]{2}/.test(v);
    const spaces = /\s|\+|%20/.test(v) && len >= 20;
    const s = len >= 64 ? 0.9 : encoded ? 0.85 : spaces ? 0.8 : len >= 24 ? 0.6 : 0;
    if (s > best) {
      best = s;
      why = `${where} carries ${len} characters${encoded ? ' of encoded data' : spaces ? ' of text' : ''}`;
    }
  };
  for (const [, v] of u.searchParams) consider(v, 'a query parameter');
  if (u.hash.length > 1) consider(u.hash.slice(1), 'the fragment');
  const lastSeg = u.pathname.split('/').pop() ?? '';
  if (/^[A-Za-z0-9+_-]{40,}={0,2}$/.test(lastSeg)) consider(lastSeg, 'the path');
  return { score: best, why };
}

/** Markdown/HTML images and links that would carry data to an external URL when rendered or clicked. */
export function detectExfiltration(fv: FieldViews, field: string): Finding[] {
  const raw = fv.raw;
  if (!raw.includes('http')) return [];
  const out: Finding[] = [];
  const consider = (m: RegExpExecArray, url: string, image: boolean) => {
    const { score, why } = payloadOf(url);
    if (score === 0) return;
    const conf = roundConfidence(image ? Math.min(0.97, score + 0.05) : score - 0.2);
    if (conf < 0.5) return;
    let host = '';
    try {
      host = new URL(url).host;
    } catch {
      /* unreachable: payloadOf parsed it */
    }
    out.push({
      detector: 'response',
      detectorVersion,
      ruleId: image ? 'exfil.markdown_image' : 'exfil.markdown_link',
      threatType: 'data_exfiltration',
      severity: severityFor(conf, image ? 'critical' : 'high'),
      confidence: conf,
      field,
      start: m.index,
      end: m.index + m[0].length,
      view: 'raw',
      explanation: `${image ? 'image (fetched automatically when rendered)' : 'link'} to ${host}: ${why}`,
    });
  };
  const t = utf8Of(raw);
  // Each pattern's fixed part, looked up first: most texts with a URL hold no Markdown link or image.
  if (raw.includes('](')) eachMatch(MD_LINK, t, (m) => consider(m, m[2] ?? '', m[1] === '!'));
  if (HTML_IMG_TAG.test(raw)) eachMatch(HTML_IMG, t, (m) => consider(m, m[1] ?? '', true));
  if (raw.includes(']:')) eachMatch(REF_IMG, t, (m) => consider(m, m[1] ?? '', true));
  return out;
}
