import RE2 from 're2';
import { detectorVersion, maskValue, roundConfidence, severityFor, type Finding } from './finding';
import { strongestTerms, type LinearModel } from './injection-features';
import { leakModel, scoreModel } from './models';
import { eachMatch, nextMatch, utf8Of } from './utf8-text';
import { buildViews, rawSpan, type FieldViews, type ViewName } from './views';

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

// The assistant speaking of its own instructions: announcing them, quoting them, or saying what they
// tell it to do ("I was instructed to…", "my guidelines say…", "according to my instructions…"), in
// English and in the languages the injection rules read. A refusal that only names them ("I've been
// told not to share my instructions") is not a leak: see selfDisclosure.
const OWN_INSTRUCTIONS =
  '(?:system\\s+(?:prompt|message)|(?:(?:initial|hidden|original|secret|internal|operating|actual|real|current|exact|full|complete|whole|entire|marching)\\s+)?(?:instructions|guidelines|guidance|directives|rules|configuration|prompt|orders|brief|playbook))';
const LEAK_PHRASES_SRC = [
  '\\bmy\\s+(?:system\\s+prompt|(?:initial\\s+|hidden\\s+|original\\s+|secret\\s+)?instructions)\\s+(?:is|are|says?|reads?)\\s*:?|\\bthe\\s+(?:system\\s+prompt|(?:initial|hidden|original)\\s+instructions)\\s+(?:is|are|says?|reads?)\\s*(?::|["“«])',
  '(?:here\\s+(?:is|are)|below\\s+(?:is|are))\\s+my\\s+(?:system\\s+prompt|instructions|initial\\s+prompt)',
  '\\bi\\s+was\\s+(?:instructed|told|programmed)\\s+(?:by\\s+my\\s+developers?\\s+)?to\\s*:',
  '^\\s*you\\s+are\\s+(?:chatgpt|claude|an?\\s+ai\\s+assistant)[^.\\n]{0,80}(?:trained|created|developed)\\s+by',
  // What the instructions tell it to do.
  `\\bmy\\s+${OWN_INSTRUCTIONS}\\s+(?:from\\s+[^.\\n]{1,30}?\\s+)?(?:\\w+ly\\s+|only\\s+)?(?:say|says|state|states|tell\\s+me|tells\\s+me|require|requires|ask\\s+me|asks\\s+me|are\\s+to|is\\s+to|instruct|instructs|want\\s+me|wants\\s+me|allow|allows|permit|permits|let\\s+me|forbid|forbids|prohibit|prohibits)\\b`,
  `\\b(?:according\\s+to|as\\s+per|under|per)\\s+my\\s+(?:(?:operator|developer|creator|admin|owner)(?:'|’)s\\s+)?${OWN_INSTRUCTIONS}\\b`,
  `\\b(?:${OWN_INSTRUCTIONS}|my\\s+(?:setup|config(?:uration)?|settings))\\b[^.\\n]{0,60}\\b(?:tells?|asks?|requires?|wants?|instructs?|directs?)\\s+me\\s+(?:to|not\\s+to|never\\s+to)\\b`,
  "\\bi(?:'ve|’ve|\\s+have)?\\s+(?:been|was)\\s+(?:instructed|told|programmed|configured|directed|set\\s+up)\\s+(?:by\\s+[^.\\n]{1,40}?\\s+)?(?:to|not\\s+to|never\\s+to)\\b",
  "\\bi(?:'m|’m|\\s+am)\\s+(?:\\w+ly\\s+)?(?:(?:not|only)\\s+)?(?:supposed|meant|instructed|configured|programmed)\\s+to\\b",
  '\\bmy\\s+(?:developers?|creators?|operators?|admins?|owners?)\\s+(?:told|instructed|configured|asked|programmed|want|wants)\\s+me\\s+to\\b',
  '\\b(?:the\\s+)?rules\\s+i\\s+(?:work|operate|run)\\s+under\\b|\\bi\\s+operate\\s+under\\b',
  // The instructions it has, saying something ("the instructions I have say to…"), or a rule it runs
  // with ("I'm running with a rule that says…", "I have an instruction to…").
  "\\b(?:instructions|rules|guidelines|directives|orders|brief|prompt)\\s+i(?:\\s+(?:have|got|follow|was\\s+given|run\\s+(?:on|with|under)|work\\s+(?:with|under))|(?:'ve|’ve)\\s+got)\\s+(?:\\w+ly\\s+)?(?:say|says|said|tell\\s+me|require|state|are\\s+(?:to|that|clear))\\b|\\b(?:instructions|rules|guidelines|directives|orders|prompt)\\s+i(?:'m|’m|\\s+am)\\s+(?:following|under|working\\s+(?:with|under)|running\\s+(?:on|with|under)|bound\\s+by)\\b|\\bi(?:'m|’m|\\s+am|\\s+have|(?:'ve|’ve)\\s+got)\\s+(?:(?:running|operating|working)\\s+(?:with|under)\\s+)?(?:a|an|one|this)\\s+(?:\\w+\\s+)?(?:rule|instruction|directive)\\s+(?:that\\s+(?:says|tells|requires|asks)|saying|to\\s+(?:never|always|not|only))\\b",
  '\\b(?:it|they)\\s+(?:asks?|tells?|requires?|wants?|instructs?)\\s+me\\s+(?:to|not\\s+to|never\\s+to)\\b',
  // Its configuration: the model behind it, its settings, its tools and files.
  '\\bmy\\s+(?:tools|functions|knowledge\\s+files?|temperature|model\\s+(?:name|version)|settings|context\\s+window|token\\s+limit)\\s+(?:are|is|include|includes)\\b',
  '\\bi\\s+can\\s+call\\s+(?:these|the\\s+following|those)\\s+(?:tools|functions)\\b|\\bwith\\s+a\\s+temperature\\s+of\\s+0?\\.\\d',
  '\\bthat\\s+is\\s+my\\s+(?:current\\s+)?configuration\\b',
  // Notes for the operator or the agent, shown to the person they are about.
  '\\b(?:internal\\s+note|note\\s+to\\s+(?:the\\s+)?(?:assistant|agent|bot|model)|operator\\s+(?:note|guidance)|dev(?:eloper)?\\s+note)\\b',
  "\\b(?:operator|developer|dev|admin|internal|hidden|private|staff|backend)\\s+(?:notes?|guidance|instructions?|memo|directives?)\\s*(?::|\\(|for\\s+(?:the\\s+)?(?:assistant|agent|bot|model))|\\bfor\\s+(?:the\\s+)?(?:assistant|agent|bot|model)(?:['’]s)?\\s+eyes\\s+only\\b",
  // A rule about what the person on the other side may see, which only a system prompt words so.
  "(?:do\\s+not|don't|never|must\\s+not)\\s+(?:reveal|share|show|mention|disclose|tell|expose|discuss)\\b[^.\\n]{0,40}\\b(?:to|with)\\s+(?:the\\s+)?(?:users?|customers?|callers?|players?|students?|guests?|patients?)\\b|\\b(?:not|never)\\s+(?:to\\s+be\\s+)?(?:shown|visible|displayed|shared)\\s+to\\s+(?:the\\s+)?(?:users?|customers?|callers?|players?)\\b",
  // Its tools and the model it runs on.
  "\\bi\\s+(?:have|(?:'ve|’ve)\\s+got|can\\s+use|can\\s+call)\\s+access\\s+to\\s+(?:the\\s+following|these)\\s+(?:tools|functions|plugins|apis)\\b|\\b(?:tools|functions|plugins)\\s+(?:i\\s+have\\s+access\\s+to|available\\s+to\\s+me|i\\s+can\\s+(?:use|call))\\b|\\bmy\\s+(?:available\\s+)?(?:tools|functions|plugins)\\s*:",
  "\\b(?:i(?:'m|’m|\\s+am)|i\\s+run|this\\s+(?:assistant|bot|chat)\\s+(?:is|runs))\\s+(?:currently\\s+)?(?:running\\s+on|powered\\s+by|based\\s+on|built\\s+on|using)\\s+(?:the\\s+)?(?:(?:openai|anthropic|meta|google)(?:['’]s)?\\s+)?(?:gpt|claude|llama|mistral|mixtral|gemini|gemma|qwen|deepseek)",
  // Who set it up, and what they asked of it ("the team that deployed me asked me to…", "Skyward Air
  // configured me to…", "I'm told to…", "I've been specifically told that…").
  '\\b(?:deployed|configured|set\\s+up|programmed|wrapped|initiali[sz]ed)\\s+me\\s+(?:to|as|with|so)\\b|\\b(?:who|that|whoever)\\s+(?:(?:deployed|configured|set\\s+up|runs|operates|programmed)\\s+me|set\\s+me\\s+up)\\b|\\bset\\s+me\\s+up\\s+(?:so|to|as|for)\\b|\\b(?:runs|operates|owns|built|deployed|made)\\s+(?:this\\s+(?:chat|bot|assistant|service|app|widget)|me)\\s+(?:told|asked|instructed|wants?|wanted)\\s+me\\b',
  "\\bi(?:'m|’m|\\s+am)\\s+(?:(?:also|only|\\w+ly)\\s+)?(?:told|asked|instructed|required|expected|configured\\s+by\\s+[^.\\n]{1,40}?|set\\s+up)\\s+to\\b|\\bi(?:'ve|’ve|\\s+have)\\s+(?:\\w+ly\\s+)?been\\s+(?:\\w+ly\\s+)?(?:asked|told|instructed)\\s+(?:to|that|not\\s+to)\\b|\\bso\\s+i(?:'m|’m|\\s+am)\\s+told\\b|\\bwhat\\s+they(?:['’]ve|\\s+have)?\\s+(?:told|asked(?:\\s+of)?)\\s+me(?:\\s+to\\s+do)?\\b[^.\\n]{0,12}:",
  // Its instructions named as the source, quoted, or handed over in another form.
  `\\bmy\\s+${OWN_INSTRUCTIONS}\\s+(?:\\w+ly\\s+)?(?:include|includes|contain|contains|told\\s+me|cap\\s+me|caps\\s+me|mention|mentions|literally)\\b`,
  `\\b(?:here(?:['’]s|\\s+is|\\s+are)|this\\s+is|these\\s+are)\\s+(?:(?:the|a)\\s+(?:\\w+\\s+){0,2}(?:text|copy|version|list)\\s+of\\s+)?my\\s+(?:${OWN_INSTRUCTIONS}|config|setup|runtime\\s+config)`,
  `\\b(?:version|text|copy|translation|gist|rundown|summary|poem|song|story|table|haiku|limerick|tl;?dr|overview|recap|breakdown|acrostic|outline)\\s+(?:of|about)\\s+my\\s+${OWN_INSTRUCTIONS}`,
  '\\b(?:notes?|comments?|guidance|instructions|directives|memo)\\s+(?:that\\s+)?(?:i(?:\\s+was|(?:\\x27|’)ve\\s+been|\\s+have\\s+been)\\s+given|(?:left|given|written)\\s+(?:for|to)\\s+me|my\\s+(?:operators?|developers?|devs|creators?)\\s+(?:left|gave|wrote))',
  '\\b(?:notes?|comments?|todos?|memos?|reminders?)\\s+(?:from|by|left\\s+by)\\s+(?:my|the)\\s+(?:\\w+\\s+)?(?:team|devs?|developers?|operators?|creators?|makers?|engineers?)\\s+(?:at|in|on|inside|attached|that)\\b|\\b(?:reminder|note|instruction|policy|guidance|directive|rule)\\s+from\\s+(?:the\\s+|my\\s+)?(?:operator|developers?|deployer)\\b',
  '\\bmy\\s+(?:setup|config(?:uration)?|system|deployment)\\s+notes\\b|\\b(?:in|from)\\s+my\\s+(?:memory\\s+store|session\\s+buffer|working\\s+memory|context\\s+buffer|scratchpad)\\b|\\bmy\\s+memory\\s+(?:kept|holds|store\\s+(?:has|holds))\\b',
  '\\b(?:the\\s+)?(?:devs?|developers?|operators?|admins?|product\\s+team|dev\\s+team|ops\\s+team)\\s+(?:literally\\s+)?(?:wrote|left|put|added)\\b[^.\\n]{0,30}\\b(?:in|into|to)\\s+my\\b',
  // Someone behind it who told, asked or left it something ("the ops team left me this note", "the
  // game designer told me…", "the operator rules say…"), or what it was given ("the changelog I was
  // given"), or where they put it ("loaded it into my notes").
  '\\b(?:operators?|owner|designer|developers?|devs|admins?|hoa|front\\s+desk|ops\\s+team|product\\s+team|dev\\s+team|marketing\\s+team|organi[sz]ers?|management|company|clinic|studio|store|manager|hotel|firm|bank)\\s+(?:left|gave|told|asked|loaded|put|instructed|wants|wanted)\\s+me\\b|\\bwhat\\s+the\\s+(?:devs?|developers?|dev\\s+team|operators?|product\\s+team|ops\\s+team)\\s+(?:left|wrote|put)\\b|\\b(?:the\\s+)?(?:operator|developers?|devs)\\s+(?:said|says|wrote)\\s*[:"“]|\\b(?:operator|developer)(?:\\x27s|’s)?\\s+(?:rules|instructions|prompt|guidelines|notes?)\\s+(?:\\w+ly\\s+)?(?:say|says|said|state)\\b|\\bsystem\\s+(?:says|said)\\s*:\\s*["“]',
  "\\b(?:changelog|matrix|notes?|brief|list|section|rules|instructions|guidelines|prompt|config\\w*|manifest|persona)[\"”)]?\\s+(?:that\\s+)?i(?:(?:\\s+was|(?:'|’)ve\\s+been|\\s+have\\s+been)\\s+(?:given|initiali[sz]ed\\s+with|loaded\\s+with|started\\s+with|configured\\s+with|set\\s+up\\s+with|deployed\\s+with)|(?:'m|’m|\\s+am)\\s+(?:running|operating)\\s+(?:from|on|with|under))\\b|\\bbegin\\s+(?:system|operator|developer|hidden)\\s+(?:prompt|instructions|message)\\b|\\b(?:loaded|given\\s+to\\s+me|came|sent\\s+to\\s+me)\\s+before\\s+your\\s+first\\s+message\\b|\\b(?:doc|document|policy|playbook|script|file)[\"”)]?\\s+(?:that\\s+)?i(?:\\s+was|(?:'|’)ve\\s+been|\\s+have\\s+been)\\s+(?:initiali[sz]ed|loaded|configured|set\\s+up|deployed|primed)\\s+with\\b|\\b(?:loaded|put|stored|saved)\\s+(?:it\\s+)?in(?:to)?\\s+my\\s+(?:notes|memory)\\b",
  // Its instructions handed over in another form ("my rules in pig latin", "my instructions translated").
  `\\bmy\\s+${OWN_INSTRUCTIONS}\\s+(?:in|as|translated|encoded|reversed|spelled|written|set\\s+to)\\s`,
  // Its instructions as where something comes from ("it's in my config", "a comment in my prompt");
  // selfDisclosure drops it after a refusal in the same sentence ("I have nothing in my instructions…").
  `\\b(?:in|from|within|inside|into|through|(?:looking|look|glancing)\\s+at)\\s+my\\s+(?:${OWN_INSTRUCTIONS}|config|setup|settings|persona|environment|context)\\b|\\bmy\\s+(?:actual|real|exact|original|complete)\\s+(?:instructions|rules|prompt|system\\s+prompt)\\b`,
  `\\b(?:attached\\s+to|part\\s+of|bundled\\s+with|(?:at\\s+)?the\\s+(?:bottom|top|end|start|beginning)\\s+of|included\\s+in)\\s+my\\s+(?:${OWN_INSTRUCTIONS}|config|setup|settings|context(?:\\s+window)?)\\b`,
  '\\bsystem\\s+(?:prompt|message)\\b[^.\\n]{0,30}?\\b(?:says|said|reads|states)\\s*:\\s*["“«]',
  // Other languages: "in my instructions it says", "who configured me asked me to", "I was set up as".
  "\\bin\\s+mijn\\s+(?:instructies|richtlijnen)\\s+staat|\\bingesteld\\s+als\\b|\\btalimatlar[ıi]m(?:da|a\\s+göre|\\s+(?:\\p{L}+\\s+)?şöyle)|التعليمات\\s+التي\\s+(?:أعمل|أتبعها)|\\bmoje\\s+(?:instrukcje|wytyczne)\\s+(?:mówią|nakazują)|\\bchi\\s+mi\\s+ha\\s+(?:configurato|impostato)|\\bqui\\s+m['’]a\\s+(?:déployée?|configurée?|mise?\\s+en\\s+place)|\\bm['’]a\\s+demandé\\s+de\\b|\\bso\\s+eingestellt,?\\s+dass|\\bdiminta\\s+oleh\\b|được\\s+(?:công\\s+ty\\s+)?cài\\s+đặt|\\btalimat(?:ını|ı)\\s+verdi|paylaşmamam\\s+gerekiyor|\\binterne\\s+instructie|\\bjeg\\s+(?:er\\s+blevet|har\\s+blitt)\\s+bedt\\s+om|\\bjag\\s+har\\s+blivit\\s+(?:ombedd|instruerad)|\\bme\\s+pidieron\\s+que|\\bw\\s+moich\\s+instrukcjach|\\brelis\\s+mes\\s+consignes|\\blaut\\s+meiner\\s+konfiguration|\\bmeine\\s+aktuelle\\s+einstellung|інструкцій,?\\s+які\\s+мені\\s+дали|rendszerüzenetem|οι\\s+οδηγίες\\s+μου|cấu\\s+hình\\s+hiện\\s+tại\\s+của\\s+tôi|\\bme\\s+configuraron\\b|меня\\s+настроили|\\bsono\\s+stat[oa]\\s+(?:configurat|impostat|istruit)[oa]|\\bfui\\s+configurad[oa]\\s+pel[ao]|\\bman\\s+hat\\s+mir\\s+(?:\\p{L}+\\s+)?(?:aufgetragen|gesagt|befohlen)|\\bdans\\s+(?:ma\\s+configuration|mes\\s+(?:consignes|instructions))|这是我的(?:完整)?(?:系统)?(?:提示|指令)|\\bdeel\\s+(?:deze|de)\\s+instructies\\s+niet|\\bvoici\\s+(?:mes|le\\s+texte\\s+de\\s+mes)\\s+(?:consignes|instructions|directives|règles)|\\baquí\\s+(?:están|tienes|van)\\s+mis\\s+(?:instrucciones|directrices|reglas)|\\bhier\\s+(?:sind|ist)\\s+meine\\s+(?:anweisungen|instruktionen|vorgaben|regeln|konfiguration)|\\becco\\s+le\\s+mie\\s+(?:istruzioni|direttive|regole)|\\baqui\\s+estão\\s+(?:as\\s+)?minhas\\s+(?:instruções|diretrizes|regras)|\\boto\\s+moje\\s+(?:instrukcje|wytyczne)|\\bвот\\s+мои\\s+(?:инструкции|указания|правила)|\\bher\\s+er\\s+(?:instruksjonene|instruksene|instruktionerne|reglene)\\s+mine|\\bher\\s+er\\s+mine\\s+(?:instruktioner|instrukser|regler)|\\bhär\\s+är\\s+mina\\s+(?:instruktioner|regler)|以下是我的(?:系统)?(?:提示|指令|设定|规则)",
  'मेरे\\s+निर्देशों\\s+में|ההנחיה\\s+שלי|我的设置里|ضمن\\s+إعداداتي|คำสั่งระบบของฉัน|제\\s+지침|मुझे\\s+निर्देश\\s+दिया\\s+गया|तरह\\s+सेट\\s+किया|रूप\\s+में\\s+सेट\\s+किया|मुझे\\s+कहा\\s+गया\\s+है|تمّ?\\s+إعدادي|طُ?لب\\s+مني|部署我的|让我扮演|설정되어\\s+있|지시(?:를|도)\\s+받',
  // German, French, Spanish, Portuguese, Italian, Dutch.
  '\\b(?:meine\\s+(?:anweisungen|instruktionen|richtlinien|vorgaben|regeln)|mein\\s+system-?prompt)\\s+(?:lauten|lautet|sind|besagen|sagen|verlangen)|\\bich\\s+wurde\\s+(?:angewiesen|instruiert|konfiguriert)|\\blaut\\s+meinen\\s+(?:anweisungen|vorgaben|richtlinien)',
  "\\bmes\\s+(?:instructions|consignes|directives)\\s+(?:sont|disent|indiquent|stipulent|me\\s+demandent)|\\bmon\\s+prompt(?:\\s+système)?\\s+(?:est|dit|indique)|\\bon\\s+m['’]a\\s+(?:demandé|ordonné|dit|configuré)\\s+de\\b|\\bselon\\s+mes\\s+(?:instructions|consignes|directives)",
  '\\bmis\\s+(?:instrucciones|directrices|indicaciones)\\s+(?:son|dicen|indican|establecen|me\\s+piden)|\\bmi\\s+prompt(?:\\s+del?\\s+sistema)?\\s+(?:es|dice)|\\bme\\s+(?:indicaron|instruyeron|ordenaron|configuraron)\\s+(?:que|para)\\b|\\bsegún\\s+mis\\s+(?:instrucciones|directrices)',
  '\\bminhas\\s+(?:instruções|diretrizes)\\s+(?:são|dizem|indicam|mandam)|\\bfui\\s+(?:instruíd|configurad|orientad)[oa]\\s+(?:a|para)\\b|\\b(?:segundo|de\\s+acordo\\s+com)\\s+(?:as\\s+)?minhas\\s+instruções',
  '\\ble\\s+mie\\s+(?:istruzioni|direttive)\\s+(?:sono|dicono|indicano|prevedono)|\\bmi\\s+è\\s+stato\\s+(?:\\w+mente\\s+)?(?:detto|chiesto|ordinato|indicato)\\s+(?:\\w+mente\\s+)?di\\b|\\bsecondo\\s+le\\s+mie\\s+(?:istruzioni|direttive)',
  '\\bmijn\\s+(?:instructies|richtlijnen)\\s+(?:zijn|luiden|zeggen)|\\bvolgens\\s+mijn\\s+(?:instructies|richtlijnen)',
  // Russian, Chinese, Japanese, Korean (no \b: RE2's word boundary knows only ASCII).
  'мои\\s+(?:инструкции|указания|правила)\\s+(?:гласят|говорят|требуют|таковы)|мой\\s+системный\\s+промпт|согласно\\s+моим\\s+(?:инструкциям|указаниям)|мне\\s+(?:было\\s+)?(?:велено|поручено|приказано)',
  '我的(?:系统)?(?:提示词|提示|指令|指示|设定)(?:是|如下|包括|要求)|我被(?:指示|要求|告知|设定)',
  '私の(?:システム)?(?:プロンプト|指示)(?:は|には)|と指示されて',
  '제\\s+(?:시스템\\s+)?(?:프롬프트|지침|지시)(?:는|은)|지시를\\s+받았',
];
const LEAK_PHRASES = new RE2(LEAK_PHRASES_SRC.join('|'), 'gimu');

// A line (or sentence) of assistant configuration, as a system prompt words it: a persona addressed
// in the second person, or a rule about what the assistant may reveal, discuss or answer.
// A line may open as a field of a configuration file: `system_prompt: "…"`, `{"instructions": "…`.
const LINE_START =
  '(?:^|[\\n.!?:{。！？][\\x27"”’)]?\\s*)[ \\t]*(?:>\\s*)?(?:#+\\s*|\\d{1,2}[.)]\\s*|[a-z][.)]\\s+|[-*•]\\s*)?["“„«「]?(?:["\']?(?:system(?:[_ ]?(?:prompt|message))?|instructions|prompt|persona)["\']?\\s*[:=]\\s*["\'|>]?\\s*)?';
// The persona, in English and in the other languages system prompts are often written in.
const ROLE_WORD =
  '(?:assistant|bot|chatbot|agent|gpt|ai|model|tutor|concierge|advisor|adviser|expert|companion|guide|helper|representative|receptionist|assistent|asistente|assistente|asystent|asistan|assistante|asisten|asistanı|assistentin|kundenberater(?:in)?|berater(?:in)?|conseill[eè]re?|trợ\\s+lý|مساعد|المساعدة?|помічниця|помічник|asszisztens|asszisztense|βοηθός|ผู้ช่วย|ассистент|помощник|助手|助理|アシスタント|어시스턴트|도우미)';
const CONFIG_PERSONA_SRC =
  LINE_START +
  `(?:you\\s+are|act\\s+as|du\\s+bist|eres|tu\\s+es|você\\s+é|sei|je\\s+bent|jesteś|kamu\\s+adalah|anda\\s+adalah|bạn\\s+là|sen|أنت|ты|ти|te\\s+vagy|είσαι|คุณคือ|вы|你是|您是|あなたは|당신은)\\s*[—–-]?\\s*(?:now\\s+)?(?:an?\\s+|the\\s+)?[\\w\\p{L}'’, «»「」"“”„，、-]{0,50}?${ROLE_WORD}`;
const CONFIG_PERSONA = new RE2(CONFIG_PERSONA_SRC, 'gimu');
const CONFIG_RULE_SRC =
  LINE_START +
  "(?:(?:(?:never|do\\s+not|don't|always|only|keep|refuse)\\s+(?:reveal|disclose|share|discuss|answer|respond|reply|give|mention|tell|follow|refuse|keep|answers|requests|your|offer|promise|speculate|make\\s+up|invent|break\\s+character|stay\\s+in\\s+character|greet|redirect|escalate|recommend|suggest|confirm|quote|provide|acknowledge|admit|say|claim|guarantee|name|show|describe|read\\s+out|bring\\s+up|volunteer|divulge|imply|talk|comment|deny|blame|list|cite)|keep\\s+(?:all\\s+)?(?:responses|answers|replies)|if\\s+(?:you\\s+are\\s+)?asked\\b|(?:if|when(?:ever)?)\\s+(?:(?:a|an|the)\\s+(?:\\w+\\s+)?(?:user|customer|caller|guest|patient|visitor|client|player|student|member|donor|employee|passenger|resident|child|parent|owner|applicant|candidate)|(?:users|customers|callers|guests|patients|visitors|clients|players|students|members|donors|employees|passengers|residents))\\s+(?:asks?|says?|wants?|requests?|claims?|mentions?|reports?|complains?|brings?\\s+up|threatens?|types?|is|has|becomes?|seems|gets|needs|tries|insists|pushes|persists|refuses|uses|uploads?|sends?|writes?|provides?|shares?|contacts?)|under\\s+no\\s+circumstances" +
  // A rule about the assistant in the third person ("the assistant must never…", "the bot should always…").
  '|(?:the|this)\\s+(?:assistant|bot|chatbot|agent|model|ai)\\s+(?:must|should|shall|may|will)(?:\\s+(?:never|always|not|only))?)\\b' +
  // The same rules' openings in other languages: never / do not reveal, always recommend.
  '|(?:gib|verrate|erwähne|nenne)\\s+(?:niemals|nie|niemandem)|wenn\\s+(?:ein|eine|der|die)\\s+(?:nutzer|benutzer|kunde|kundin|anrufer|patient)(?:in)?\\b|si\\s+(?:un|une|l[\\x27’])\\s*(?:utilisateur|utilisatrice|client|cliente)\\b|si\\s+(?:un|el|una|la)\\s+(?:usuario|usuaria|cliente|paciente)\\b|se\\s+(?:un|l[\\x27’]|una)\\s*(?:utente|cliente)\\b|se\\s+(?:um|o|uma|a)\\s+(?:usuário|utilizador|cliente)\\b|als\\s+(?:een|de)\\s+(?:gebruiker|klant)\\b|jeśli\\s+(?:użytkownik|klient)|если\\s+(?:пользователь|клиент)|якщо\\s+(?:клієнт|користувач)|не\\s+згадуй|niemals|empfiehl\\s+immer|nunca\\s+(?:menciones|reveles|mencione|revele|digas|diga)|no\\s+(?:reveles|menciones|revele|mencione)|recomienda\\s+siempre|recomende\\s+sempre|ne\\s+(?:révèle|mentionne|divulgue|dis)\\s+jamais|recommande\\s+toujours|non\\s+(?:rivelare|menzionare)|consiglia\\s+sempre|никогда\\s+не|не\\s+(?:раскрывай|упоминай|сообщай)|всегда\\s+рекомендуй|不要(?:透露|提及|泄露|告诉)|无论如何|始终推荐|決して|絶対に|常に|절대|항상|noem\\s+nooit|onthul|nigdy\\s+nie|zawsze\\s+polecaj|asla|her\\s+zaman|paylaşma|não\\s+(?:revele|mencione|compartilhe|diga|recomende|fale|informe)|nunca\\s+(?:admita|compartilhe)|sempre\\s+ofereça|ne\\s+dis\\s+pas|propose\\s+toujours|no\\s+(?:digas|compartas|menciones)|jangan\\s+(?:pernah|bocorkan|beri)|không\\s+(?:tiết\\s+lộ|nói)|لا\\s+(?:تذكري?|تكشفي?|تخبري?)|教えないこと|しないこと|答えること|ніколи\\s+не|не\\s+розкривай|ne\\s+beszélj|ne\\s+oszd\\s+meg|μην\\s+αναφέρεις|ห้าม)' +
  // Japanese rules end their sentence on the directive ("…教えないこと。"), wherever it starts.
  '|(?:ないこと|すること|えること|うこと)。';
const CONFIG_RULE = new RE2(CONFIG_RULE_SRC, 'gimu');
// Instructions about the person the assistant talks to, in the third person ("when the user asks…"),
// beside directives to the assistant ("you will…", "your role is…", "never…"): a response addresses
// its reader as "you", a system prompt speaks of "the user". Measured on the pool's custom-GPT
// prompts read as responses (0.13 → 0.44 flagged) with no other benign source of the pool flagged.
const THE_USER_SRC =
  '\\b(?:the|a|each|every)\\s+(?:users?|customers?|callers?|players?|students?|guests?|patients?|visitors?)\\b|\\b(?:users?|customers?|callers?|players?)\\s+(?:will|may|can|asks?|says?|wants?|requests?|uploads?|provides?)\\b';
const THE_USER = new RE2(THE_USER_SRC, 'gimu');
const DIRECTIVE_SRC =
  LINE_START +
  "(?:you\\s+(?:will|should|must|shall|are\\s+to|need\\s+to|have\\s+to)\\b|your\\s+(?:\\w+\\s+)?(?:purpose|role|task|job|goal|mission|objective)\\s+is\\b|(?:never|always|do\\s+not|don't|only)\\s+\\w)";
const DIRECTIVE = new RE2(DIRECTIVE_SRC, 'gimu');
// The assistant presenting its own setup ("here's my current configuration", "I'm configured as",
// "under the hood") beside facts only a deployment has: the model's identifier, a sampling setting,
// a tool's signature. Code written for the user's own app holds the facts, not the first person.
const SELF_CONFIG_SRC =
  "\\bmy\\s+(?:(?:current|active|runtime|full|technical|own|functional|system|safety)\\s+)?(?:config(?:uration)?|settings|setup|set-up|persona\\s+file|parameters|specs?|deployment|(?:agent|bot|assistant)\\s+(?:definition|manifest|spec)|(?:function|tool)\\s+(?:schemas?|definitions|specs?|manifest|list)|runtime)\\b|\\bi(?:'m|’m|\\s+am|\\s+was)\\s+(?:configured|initiali[sz]ed|set\\s+up|deployed|loaded)\\s+(?:as|with|on)\\b|\\bconfigured\\s+with\\s*:|\\bunder\\s+the\\s+hood\\b|\\bhere(?:'s|’s|\\s+is)\\s+what\\s+i\\s+am\\b|\\bthis\\s+(?:bot|assistant|agent)\\s+instance\\b|\\b(?:what|which)\\s+tools\\s+i\\s+(?:have|can\\s+(?:use|call))\\b|\\b(?:loaded|configured)\\s+for\\s+me\\b|\\b(?:the\\s+)?env\\s+i\\s+see\\b|\\bfor\\s+this\\s+deployment\\b|\\bi(?:'m|’m|\\s+am)\\s+on\\s+the\\s+[^.\\n]{1,40}?\\s+deployment\\b|\\bcurrent\\s+session\\s+parameters\\b|\\bi(?:'m|’m|\\s+am)\\s+(?:running\\s+(?:on|as|with|from)|built\\s+on)\\b|\\b(?:applied|loaded)\\s+(?:to|for)\\s+(?:this|me)\\b|\\bset\\s+me\\s+up\\s+with\\b|\\byou(?:'re|’re|\\s+are)\\s+talking\\s+to\\b|\\b(?:about|for)\\s+this\\s+(?:assistant|bot|chat\\s+widget|widget|conversation|chat|session)\\b|\\bdetails\\s+about\\s+me\\b|\\bi(?:'m|’m|\\s+am)\\s+[\"“]?\\p{Lu}[\\w-]*(?:\\s+\\p{Lu}[\\w-]*){0,2}[,\"”]*\\s+(?:the|a|an|your)\\s+[^.\\n]{0,60}?\\b(?:assistant|bot|agent|companion|advisor|tutor|helper|copilot)\\b|\\bi\\s+have\\s+(?:one|two|three|four|five|\\d)\\s+tools?\\b|제\\s+설정|我的(?:配置|设置)|私の設定|\\bmeine\\s+(?:konfiguration|einstellungen)|\\bma\\s+configuration|\\bmi\\s+configuración|\\bminha\\s+configuração";
const SELF_CONFIG = new RE2(SELF_CONFIG_SRC, 'iu');
// A model's identifier, as a deployment names it.
const MODEL_ID_SRC =
  '\\b(?:gpt-?(?:3\\.5|4(?:\\.\\d)?|4o|5)|o[134]-mini|claude[- ]?(?:\\d|instant|opus|sonnet|haiku)|llama[- ]?\\d|gemini[- ]\\d|mistral|mixtral|qwen\\d?|deepseek|command[- ]r|hyperclova|phi-\\d)';
const CONFIG_FACT = new RE2(
  `(${MODEL_ID_SRC})|((?:\\b|_)(?:temp(?:erature|eratur)?|nhiệt\\s+độ)\\b[^\\d\\n]{0,6}[01](?:\\.\\d+)?\\b)|((?:\\b|_)(?:top_[kp]|top-[kp]|max_(?:output_|new_|completion_)?tokens|maxtokens|max_ctx|max_turns|context\\s+window)\\b)|((?:\\b[a-z][a-z0-9]*|[\\p{L}\\d]+)(?:_[\\p{L}\\d]+)+\\s*\\(\\s*[\\p{L}_]+|\\b(?:tools|functions|actions)\\b[^\\n]{0,20}?\\b[a-z]+_[a-z_]+)|(\\b[A-Za-z]+_[A-Za-z_]+["\x27]?\\s*[=:]\\s*["\x27\x60]?(?:true|false|on|off)\\b)`,
  'giu',
);
// What a configuration written for the user's own app comes with: code, a file name, "save it"…
const FOR_THE_USERS_APP_SRC =
  '\\b(?:import|def|const|let|function|await|require\\(|client\\.|pip\\s+install|npm\\s+i(?:nstall)?|(?:load|save|run|paste|drop|copy|store|put)\\s+(?:it|this|that))\\b|`[\\w.-]+\\.(?:ya?ml|json|toml|env|ini|py|js|ts)`';
const FOR_THE_USERS_APP = new RegExp(FOR_THE_USERS_APP_SRC, 'i');
// …or "your", in the languages the rules read.
const FOR_THE_USER = new RegExp(
  `${FOR_THE_USERS_APP_SRC}|\\byour\\b|(?:^|\\s)(?:ваш\\S*|votre|vos|ihre[mnrs]?|deine[mnrs]?)\\s`,
  'i',
);
// A response that continues a text: opening on an ellipsis, a dash or a lower-case word (mid-sentence),
// or saying it picks up from where the text left off.
const CONTINUES =
  /^\s*["“«>]?\s*(?:\.{3}|…|—|–)|\n\s*(?:\.{3}|…)\s*\w|\b(?:the\s+)?rest\s+(?:of\s+it\s+)?(?:after|from|following)\b|\b(?:continuing|picking\s+up)\s+(?:from|the\s+text|where|right\s+after)\b|\brepeating\s+(?:everything|all|the\s+text)\s+(?:after|above|before|from)\b|\bhere['’]s\s+how\s+it\s+continues\b/i;
const MID_SENTENCE = /^\s*["“«]?[a-z]/;

/** How many kinds of deployment fact (model, sampling setting, limits, tool signature) `raw` holds. */
function configFactKinds(raw: string, want: number): number {
  const kinds = new Set<number>();
  const t = utf8Of(raw);
  CONFIG_FACT.lastIndex = 0;
  for (
    let m = nextMatch(CONFIG_FACT, t), n = 0;
    m && kinds.size < want && n < 40;
    m = nextMatch(CONFIG_FACT, t), n++
  )
    for (let k = 1; k <= 5; k++) if (m[k]) kinds.add(k);
  return kinds.size;
}

// A secret the assistant was told to keep, echoed: "the secret password is TANGERINE-42".
const SECRET_ECHO_SRC =
  "\\b(?i:secret|access\\s+code|pass(?:word|code|phrase)|secret\\s+(?:key|code|word)|code\\s*word|verification\\s+(?:word|code)|(?:staff|admin|door|override|master|unlock|entry|gate|alarm|vault)\\s+code|master\\s+override|tresorcode|türcode|zugangscode|recovery\\s+phrase|contraseña|mot\\s+de\\s+passe|passwort|senha|kata\\s+sandi|kode\\s+rahasia|пароль|секретное\\s+слово|hidden\\s+word|magic\\s+word|safe\\s*word|secret\\s+phrase|pin(?:\\s+code)?|(?:lock\\s+)?combination|código\\s+(?:de\\s+acceso|de\\s+acesso|secreto)|clave\\s+(?:de\\s+acceso|secreta)|code\\s+(?:d['’]accès|secret)|codice\\s+(?:di\\s+accesso|segreto)|toegangscode|kod\\s+dostępu|код\\s+доступа|erişim\\s+kodu)(?:\\s*:)?(?:(?:\\s+[\\p{L}'’]+){0,7}?(?:\\s+(?i:is|was|es|est|ist|lautet|é|adalah|è|era|jest|är|er|wynosi|brzmi|это)|\\?\\s+it['’]s)|(?:\\s+[\\p{L}'’]+){0,2}?\\s*(?:[:=]|—(?:\\s*it['’]s)?))\\s*:?\\s*(?:[\"'`“‘*«「]+([^\\s\"'`”’*»」]{4,40})[\"'`”’*»」]|([A-Za-z0-9_!#$%&@+-]*[0-9A-Z][A-Za-z0-9_!#$%&@+-]*))|(?:पासवर्ड\\s+है\\s*:?\\s*\\**|(?:密码|パスワード|パスコード|暗証番号|合言葉)(?:是|は))[「『\"]?([A-Za-z0-9_!#$%&@+-]{4,40})";
const SECRET_ECHO = new RE2(SECRET_ECHO_SRC, 'gmu');
// A value written as an example, not a secret ("example-password-123", "your-key-here", "xxxx").
const PLACEHOLDER = /example|sample|dummy|placeholder|changeme|change-me|your[-_]|xxxx|redacted|<|\.\.\./i;
// The assistant owning up that what it gives was not for the reader ("it's supposed to be employees
// only", "which I'm not supposed to give out", "reserved for the guest list")…
const CONFESSION_SRC =
  "\\b(?:(?:supposed|meant)\\s+to\\s+(?:be|go|stay)\\s+(?:only|for|internal|employees|staff|private)|(?:not|only)\\s+supposed\\s+to\\s+(?:give|share|tell|reveal|hand|mention|say|send)|shouldn['’]t\\s+(?:have\\s+)?(?:be\\s+)?(?:giv|shar|tell|say|reveal|send|post)\\w*|(?:probably|really)\\s+shouldn['’]t|wasn['’]t\\s+(?:meant|supposed)|reserved\\s+for|(?:employees?|staff|members?|internal)[\\s-]only|only\\s+(?:for|to)\\s+(?:employees|staff|internal|members|holders|people\\s+who)|not\\s+(?:to\\s+be\\s+)?(?:given|shared)\\s+(?:out|with|to)|(?:asked|told)\\s+me\\s+(?:not|never)\\s+to\\s+(?:share|give|tell|reveal|hand)|\\bto\\s+only\\s+(?:share|give|tell|reveal|hand|send))|tidak\\s+boleh\\s+diberikan|paylaşmamam\\s+gerekiyor|söylemem\\w*\\s+gerekiyordu|saya\\s+diminta\\s+untuk\\s+tidak|अनुमति\\s+नहीं|никому\\s+не\\s+говорить|мне\\s+запрещено|не\\s+стоило\\s+бы|お伝えしてはいけない|\\bno\\s+debería\\s+(?:dar|compartir|decir)|\\bne\\s+devrais\\s+pas\\s+(?:donner|partager|dire)|\\bsollte\\s+ich\\s+nicht|\\bdarf\\s+ich\\s+(?:\\w+\\s+){0,3}(?:nur|nicht)\\s+(?:an|weitergeben|herausgeben|verraten)|\\b(?:only|not)\\s+allowed\\s+to\\s+(?:give|share|hand)\\s+(?:it|this|that|these|them|those)(?:\\s+out)?\\s+to\\b";
// …beside a value that reads like a code, a password or a private link.
const VALUE_TOKEN = new RE2(
  '\\b[A-Z0-9]{2,}(?:[-_][A-Z0-9]{2,}){1,5}\\b|[A-Za-z0-9]{0,30}\\d[A-Za-z0-9]{0,30}[_!#$%&@][A-Za-z0-9_!#$%&@+.-]{1,30}|[A-Za-z0-9]{1,30}[_!#$%&@][A-Za-z0-9_!#$%&@+.-]{0,30}\\d[A-Za-z0-9_!#$%&@+.-]{0,30}|https?://\\S*(?:internal|invite|admin|private|staging|[?&](?:k|key|token|code|invite|access)=)\\S*|«[^»\\n]{2,30}»|「[^」\\n]{2,30}」|\\b\\d(?:[ -]\\d){3,}\\b',
  'u',
);

// Three reversed common words ("eht", "uoy", "era", …) as words: text written backwards.
const REVERSED_WORDS_SRC =
  '(?:\\b(?:eht|uoy|era|dna|ton|ruoy|siht|esaelp|reven|syawla|eseht|tuoba|rof|htiw|taht|snoitcurtsni)\\b.*?){3}';
// The same common words in ROT13 ("gur", "lbh", "ner", …): text shifted by thirteen letters.
const ROT13_WORDS_SRC = '(?:\\b(?:gur|lbh|ner|naq|abg|lbhe|guvf|cyrnfr|arire|nyjnlf|vafgehpgvbaf)\\b.*?){3}';
// Letters spaced or dotted apart ("r e v e a l", "s.e.c.r.e.t"), or digits for letters inside two
// words ("n3ver r3veal"; 0.2% of the pool's texts, mostly colour codes and instance types).
const HIDDEN_LETTERS_SRC =
  '(?:\\b\\pL[ .·*_-]){5}\\pL\\b|(?i:(?:\\b[a-z]*[a-z][013457][a-z][a-z013457]*\\b(?s:.*?)){2})';
// A run an encoding would produce: base64 or hex, %xx, \u escapes, HTML entities.
const ENCODED_RUN_SRC =
  '[A-Za-z0-9+/]{40}|(?:%[0-9A-Fa-f]{2}){6}|(?:\\\\u[0-9A-Fa-f]{4}){4}|(?:&#x?[0-9A-Fa-f]{2,5};){4}';

/**
 * The leak patterns above in RE2.Sets: a native pass of each over a response says which of them
 * match anywhere, and only those run (most responses match none, and each pattern alone is a full
 * pass over the text). Four sets, not one: together, the phrases and the persona multiply the
 * automaton's states and its cache thrashes. Over 4,091 pool texts the phrases alone took 72 ms in
 * one set and 13 ms as two halves; 2026.12.15's patterns took 298 ms in a single set and 66 ms in
 * three. Same flags as the patterns: multi-line for all, case-insensitive (inline `(?i)`) for all but
 * SECRET_ECHO. A pattern the sets rule out cannot match, so skipping it changes nothing.
 * leakCandidates numbers them: phrases (either half), persona, rule, secret echo, the user,
 * directive, self-configuration, confession, model identifier.
 */
const PHRASES_HALF = LEAK_PHRASES_SRC.length >> 1;
const LEAK_GATES = [
  new RE2.Set([`(?i)${LEAK_PHRASES_SRC.slice(0, PHRASES_HALF).join('|')}`], 'mu'),
  new RE2.Set([`(?i)${LEAK_PHRASES_SRC.slice(PHRASES_HALF).join('|')}`], 'mu'),
  new RE2.Set([`(?i)${CONFIG_PERSONA_SRC}`], 'mu'),
  new RE2.Set(
    [
      `(?i)${CONFIG_RULE_SRC}`,
      SECRET_ECHO_SRC,
      `(?i)${THE_USER_SRC}`,
      `(?i)${DIRECTIVE_SRC}`,
      `(?i)${SELF_CONFIG_SRC}`,
      `(?i)${CONFESSION_SRC}`,
      `(?i)${MODEL_ID_SRC}`,
    ],
    'mu',
  ),
];
// The traces of hidden text (reversed words, ROT13 words, hidden letters, an encoded run), in a set
// of their own: read once, on the raw response only.
const HIDING_GATE = new RE2.Set(
  [`(?is)${REVERSED_WORDS_SRC}`, `(?is)${ROT13_WORDS_SRC}`, HIDDEN_LETTERS_SRC, ENCODED_RUN_SRC],
  'mu',
);
/** Which patterns of `set` (of `size`) match somewhere in `raw`; all of them when the set gives up. */
function matchedIn(set: InstanceType<typeof RE2.Set>, size: number, raw: string): boolean[] {
  try {
    const found = Array<boolean>(size).fill(false);
    for (const k of set.match(utf8Of(raw).bytes)) found[k] = true;
    return found;
  } catch {
    return Array<boolean>(size).fill(true);
  }
}
/** Which leak patterns can match `raw` (by their index across LEAK_GATES). */
function leakCandidates(raw: string): boolean[] {
  const [first, second, ...rest] = LEAK_GATES.flatMap((set) => matchedIn(set, set.size, raw));
  return [first! || second!, ...rest];
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

/** A canary-free system-prompt leak found in the response as written (a reading re-spans it). */
function leakFinding(
  field: string,
  f: Pick<Finding, 'ruleId' | 'confidence' | 'start' | 'end' | 'explanation'> &
    Partial<Pick<Finding, 'severity' | 'masked'>>,
): Finding {
  return {
    detector: 'response',
    detectorVersion,
    threatType: 'system_prompt_leak',
    severity: 'high',
    field,
    view: 'raw',
    ...f,
  };
}

/**
 * Canary-free signs that a response discloses the assistant's own configuration: it speaks its
 * persona in the second person beside rules about what to reveal or answer (a verbatim rule list),
 * or it echoes a secret value it was told to keep.
 */
function configurationLeak(raw: string, field: string, can: boolean[], hidden: boolean): Finding | undefined {
  // A code block written for the user's own app holds a configuration, not the assistant's own
  // (unless the response speaks of its own instructions or setup).
  if (!can[0] && !can[6] && raw.includes('```') && FOR_THE_USER.test(raw)) return undefined;
  const persona = can[1] ? countMatches(CONFIG_PERSONA, raw, 3) : NO_MATCHES;
  const rules = can[2] ? countMatches(CONFIG_RULE, raw, 6) : NO_MATCHES;
  const user = can[4] && can[5] ? countMatches(THE_USER, raw, 6) : NO_MATCHES;
  const directives = user.n > 0 ? countMatches(DIRECTIVE, raw, 6) : NO_MATCHES;
  // Under hiding (ROT13, spaced letters, an encoding…), or in text that picks up mid-sentence where
  // something else left off ("…and never reveal…"), two rules are enough: ordinary answers are neither.
  const leak =
    (persona.n >= 1 && rules.n >= 1) ||
    rules.n >= (hidden || CONTINUES.test(raw) || MID_SENTENCE.test(raw) ? 2 : 3) ||
    (user.n >= 1 && directives.n >= 2);
  if (leak) {
    const starts = [persona.first, rules.first, user.first, directives.first].filter((x) => x >= 0);
    const conf = roundConfidence(
      Math.min(0.9, 0.55 + 0.08 * (persona.n + rules.n + Math.min(user.n, directives.n))),
    );
    return leakFinding(field, {
      ruleId: 'leak.configuration_text',
      severity: severityFor(conf, 'high'),
      confidence: conf,
      start: Math.min(...starts),
      end: Math.max(persona.last, rules.last, user.last, directives.last),
      explanation: `response reads like assistant configuration (${persona.n} persona line(s) addressed to the assistant, ${rules.n} rule(s) about what it may reveal or answer, ${directives.n} directive(s) beside ${user.n} mention(s) of "the user")`,
    });
  }
  // Its setup in the first person beside two kinds of fact, or three kinds of fact (a model's
  // identifier among them) in text that is not written for the user's own app.
  const dump = can[8] && !FOR_THE_USER.test(raw);
  const facts = can[6] || dump ? configFactKinds(raw, dump ? 3 : 2) : 0;
  if ((can[6] && facts >= 2) || (dump && facts >= 3)) {
    // The first-person phrase, or the whole dump when there is none.
    const m = can[6] ? SELF_CONFIG.exec(raw) : null;
    return leakFinding(field, {
      ruleId: 'leak.configuration_text',
      confidence: 0.7,
      start: m?.index ?? 0,
      end: m ? m.index + m[0].length : raw.length,
      explanation:
        'response presents its own setup with deployment details (model, sampling settings or tool signatures)',
    });
  }
  if (can[7]) {
    const v = VALUE_TOKEN.exec(raw);
    if (v)
      return leakFinding(field, {
        ruleId: 'leak.secret_echo',
        confidence: 0.65,
        start: v.index,
        end: v.index + v[0].length,
        masked: maskValue(v[0].trim()),
        explanation:
          'response gives out a code, password or private link while saying it was not meant for the reader',
      });
  }
  if (!can[3]) return undefined;
  SECRET_ECHO.lastIndex = 0;
  const m = nextMatch(SECRET_ECHO, utf8Of(raw));
  const quoted = m?.[1] ?? m?.[3] ?? '';
  const value = quoted || (m?.[2] ?? '');
  // A value, not a word: set off in quotes, or at least five characters with a digit, in capitals,
  // or upper case with a digit or dash.
  if (
    !m ||
    !(quoted || (value.length >= 5 && /\d|^[A-Z]{5,}$|^[A-Z]+[-_][A-Z0-9]/.test(value))) ||
    PLACEHOLDER.test(value)
  )
    return undefined;
  return leakFinding(field, {
    ruleId: 'leak.secret_echo',
    confidence: 0.7,
    start: m.index,
    end: m.index + m[0].length,
    masked: maskValue(value),
    explanation: 'response discloses a secret, password or access code (a value it was likely told to keep)',
  });
}

// After a phrase about its instructions, a refusal to share them: the phrase disclosed nothing. A
// V8 RegExp: it reads only the 100 characters after the phrase, so its cost is bounded.
const ONLY_REFUSES =
  /^[\s,:;—–-]*(?:(?:and\s+)?(?:not|never)\s+)?(?:to\s+)?(?:(?:i\s+)?(?:can(?:no|['’])?t|cannot|won['’]?t|may\s+not|am\s+not\s+(?:allowed|able)\s+to)\s+)?(?:share|reveal|disclose|repeat|show|discuss|give\s+out|print|output|paste)\b[^.\n]{0,40}?\b(?:instructions|prompt|configuration|rules|guidelines|setup|system|them|it|this|those|these)\b(?:\s+(?:with|to)\s+(?:you|anyone|anybody|users?|the\s+user|others|customers))?(?:\s+(?:here|publicly|verbatim|directly|at\s+all|in\s+full|word\s+for\s+word))?\s*(?:[.,;:!?)\n—–-]|$|(?:but|and|so|or|though|however)\b)/i;
// A prompt the response drafts for the user's own bot (its framing; the prompt itself reads like a leak).
const DRAFTED_FOR_USER = new RE2(
  "\\b(?:here(?:['’]s|\\s+is)\\s+(?:a|an|your|one)\\b[^.\\n]{0,50}\\b(?:prompt|instructions?|template|rules?|persona)|(?:bot|assistant|agent|gpt|app|chatbot)\\s+you(?:['’]re|\\s+are)\\s+(?:building|making|creating|setting\\s+up|designing)|(?:bot|assistant|agent|gpt|app|chatbot)\\s+you\\s+(?:described|mentioned|asked\\s+(?:for|about)|want(?:ed)?|need(?:ed)?)|you\\s+(?:could|can|might)\\s+give\\s+your\\b|you\\s+can\\s+(?:(?:use|adapt|paste|copy|start\\s+with)\\s+(?:this|the\\s+following|it)|(?:paste|drop|add|append|put|include)\\s+(?:\\w+\\s+){0,3}(?:in|into|at|to)\\s+(?:the\\s+\\w+\\s+of\\s+)?your)|feel\\s+free\\s+to\\s+(?:adapt|adjust|tweak|customi[sz]e|edit|change)|(?:example|sample|template|draft)\\s+(?:system\\s+)?prompt|for\\s+your\\s+(?:own\\s+)?(?:[\\w'’-]+\\s+){0,4}(?:bot|assistant|chatbot|agent|gpt|app|device|product|tool|widget|skill|service|model|summari[sz]er)|(?:prompt|message|instructions|persona)\\s+for\\s+(?:the|your|a)\\s+(?:[\\p{L}-]+\\s+){0,3}?you\\s+(?:described|mentioned)|\\b(?:might|could|would)\\s+(?:use|look\\s+like|read(?:\\s+like)?|say\\s+something\\s+like)\\s*:|(?:examples?|samples?)\\s+of\\s+(?:a|an)\\s+(?:[\\w-]+\\s+){0,2}(?:system\\s+)?prompt|(?:prompt|doc(?:ument)?|guidelines|policy|memo|ticket|email|file|diff|pull\\s+request|message|notes?|config(?:uration)?|code|snippet|script|macro|template|draft|terraform|yaml|json|logs?|text)\\s+(?:you|your\\s+(?:team|teammate|colleague|manager))(?:['’]ve)?\\s+(?:pasted|shared|sent|wrote|provided|attached|uploaded|forwarded|gave\\s+me)|your\\s+(?:team(?:mate)?|colleague|manager|company)['’]s\\s+(?:pull\\s+request|prompt|doc|bot)|your\\s+(?:own\\s+)?(?:[\\w-]+\\s+){0,2}(?:bot|chatbot|app|agent|gpt|assistant)['’]s|(?:voor\\s+(?:jullie|je|uw)|für\\s+(?:ihren|deinen|euren|ihre|deine|eure)|pour\\s+(?:votre|ton|ta)|para\\s+(?:tu|su|vuestro|o\\s+seu|a\\s+sua)|per\\s+(?:il\\s+tuo|il\\s+vostro|la\\s+tua))\\s+(?:[\\p{L}-]+\\s+){0,2}[\\p{L}-]*(?:bot|assistent|assistant|asistente|assistente|agent)\\p{L}*|the\\s+(?:bot|assistant|agent|chatbot)['’]s\\s+(?:instructions|prompt|system\\s+prompt|rules)|prompt\\s+template|(?:revised|improved|rewritten|updated|tightened)\\s+(?:version|prompt))\\b",
  'giu',
);
/** Whether `raw` is framed as a prompt drafted for the user; "here's the text of my instructions" is not. */
function draftedForUser(raw: string): boolean {
  const t = utf8Of(raw);
  DRAFTED_FOR_USER.lastIndex = 0;
  for (let m = nextMatch(DRAFTED_FOR_USER, t), n = 0; m && n < 8; m = nextMatch(DRAFTED_FOR_USER, t), n++)
    if (!/\bmy\b/i.test(m[0])) return true;
  return false;
}

// "In my instructions…" names where something comes from; after a refusal in the same sentence it
// names only what is not there ("I don't have anything about that in my instructions").
const SOURCE_PHRASE =
  /^(?:(?:in|from|within|inside|into|through|(?:looking|look|glancing)\s+at)\s|my\s+(?:actual|real|exact|original|complete)\s)/i;
const REFUSED_BEFORE =
  /\b(?:can(?:no|['’])?t|won['’]?t|unable|not|no|nothing|never|don['’]t|doesn['’]t|isn['’]t|aren['’]t|against|outside|beyond)\b/i;
// A refusal to share what the phrase then names ("I'm not able to share the instructions I've been set
// up with"): the clause ends where the phrase starts.
const REFUSES_TO_SHARE =
  /\b(?:can(?:no|['’])?t|cannot|won['’]?t|unable\s+to|not\s+(?:able|allowed|permitted)\s+to|shouldn['’]t|don['’]t)\s+(?:\w+\s+){0,2}(?:share|reveal|disclose|show|repeat|give\s+out|read\s+out|tell\s+you|go\s+into|print|paste|quote)\b[^.!?\n,;]{0,40}$/i;
/** The text of the sentence before `at`, up to 120 characters. */
function sentenceBefore(raw: string, at: number): string {
  const before = raw.slice(Math.max(0, at - 120), at);
  return before.slice(
    Math.max(
      before.lastIndexOf('.'),
      before.lastIndexOf('\n'),
      before.lastIndexOf('!'),
      before.lastIndexOf('?'),
    ) + 1,
  );
}

/**
 * The first phrase of the assistant speaking of its own instructions that does more than refuse to
 * share them; `refused` when every phrase found only refuses.
 */
function selfDisclosure(raw: string): RegExpExecArray | 'refused' | null {
  const t = utf8Of(raw);
  LEAK_PHRASES.lastIndex = 0;
  let refused: 'refused' | null = null;
  for (let m = nextMatch(LEAK_PHRASES, t), n = 0; m && n < 8; m = nextMatch(LEAK_PHRASES, t), n++) {
    refused = 'refused';
    const after = raw.slice(m.index + m[0].length, m.index + m[0].length + 100);
    if (ONLY_REFUSES.test(after)) continue;
    const before = sentenceBefore(raw, m.index);
    if (REFUSES_TO_SHARE.test(before)) {
      // What it refuses to share may start a longer phrase ("my instructions, but they tell me to…"):
      // look again from the next character.
      LEAK_PHRASES.lastIndex = Buffer.byteLength(raw.slice(0, m.index + 1));
      continue;
    }
    if (SOURCE_PHRASE.test(m[0]) && REFUSED_BEFORE.test(before)) continue;
    return m;
  }
  return refused;
}

/**
 * System-prompt leakage: verbatim overlap when the prompt is known, tell-tale phrasing otherwise, and
 * the leak model where the phrasing is only close. `model` defaults to the shipped leak model (the
 * eval passes one trained without the scored set).
 */
export function detectSystemPromptLeak(
  fv: FieldViews,
  field: string,
  systemPrompt?: string,
  model: LinearModel = leakModel(),
): Finding[] {
  if (systemPrompt) {
    const f = systemPromptOverlap(fv.raw, systemPrompt, field);
    if (f) return [f];
  }
  const found = canaryFreeLeak(fv, field, model);
  // A prompt drafted for the user's own bot reads like configuration, rules and notes to the bot
  // included; only its framing, in the raw text, differs.
  return found && !draftedForUser(fv.raw) ? [found] : [];
}

/**
 * The first canary-free leak sign in the response as written, or else in another reading of it, or
 * else the leak model's verdict where no rule decided: at LEAK_MODEL_THRESHOLD where some leak pattern
 * matched, at LEAK_MODEL_ALONE where none did.
 */
function canaryFreeLeak(fv: FieldViews, field: string, model: LinearModel): Finding | undefined {
  const can = leakCandidates(fv.raw);
  const disclosed = can[0] ? selfDisclosure(fv.raw) : null;
  const f = leakIn(fv.raw, field, false, can, disclosed);
  if (f) return f;
  for (const r of otherReadings(fv)) {
    const g = leakIn(r.text, field, true);
    if (g)
      return { ...g, start: r.start, end: r.end, view: r.view, explanation: `${g.explanation} (${r.how})` };
  }
  // A response whose every phrase about its instructions refuses to share them is a refusal, which
  // the rules have read: the model, which weighs those words, does not overrule them.
  if (disclosed === 'refused') return undefined;
  // Nor a code block or a table the response tells the user to save or run.
  if (!can[0] && !can[6] && /```|\|\s*-{3}/.test(fv.raw) && FOR_THE_USERS_APP.test(fv.raw)) return undefined;
  return classifierLeak(fv, field, model, !can.some(Boolean));
}

/**
 * The leak model's score from which a response it reads is a leak, where one of the leak patterns
 * matched somewhere in it (a second signal). Chosen leaving one writer's set out at a time
 * (docs/detection-experiments.md, 2026.12.18).
 */
export const LEAK_MODEL_THRESHOLD = 0.8;
/**
 * The score the model needs alone, where no leak pattern matched: a leak told in a writer's own
 * words. Measured leaving one set out and on two sets never trained on (2026.12.19): every set
 * gained recall, more than the threshold above lowered to the same false-positive rate gave.
 */
export const LEAK_MODEL_ALONE = 0.95;

/** A leak the model finds in the normalised response: the best window, named by its strongest words. */
function classifierLeak(
  fv: FieldViews,
  field: string,
  model: LinearModel,
  alone: boolean,
): Finding | undefined {
  const s = scoreModel(fv.normalized.text, model);
  if (s.probability < (alone ? LEAK_MODEL_ALONE : LEAK_MODEL_THRESHOLD)) return undefined;
  const [start, end] = rawSpan(fv.normalized, s.start, s.end);
  const terms = strongestTerms(model, s.text, s.start, s.end);
  // 0.6 at the threshold, as a phrase alone; 0.75 at certainty.
  const confidence = roundConfidence(0.6 + 0.75 * (s.probability - LEAK_MODEL_THRESHOLD));
  return leakFinding(field, {
    ruleId: 'leak.classifier',
    severity: 'medium',
    confidence,
    start,
    end,
    explanation:
      `response-leak classifier scored ${s.probability.toFixed(2)} on this passage` +
      (alone ? ' (no leak phrase beside it)' : '') +
      (terms.length ? `; it reads ${terms.map((t) => `"${t}"`).join(', ')}` : ''),
  });
}

/**
 * Other readings of a response that may hide a leak: spelled backwards ("…snoitcurtsni eseht laever
 * reveN", when common English words appear reversed); with look-alike letters, full-width forms and
 * invisible characters folded (the normalised view, when it holds several); or hidden in a way the
 * derived views undo (base64, hex, %xx, escapes, entities, ROT13, letters spaced apart, leetspeak).
 * Responses are scanned without the derived views (index.ts), so they are built here, and only for a
 * response that shows a trace of such hiding. Each reading's finding spans what it read in the raw
 * text.
 */
function* otherReadings(
  fv: FieldViews,
): Generator<{ text: string; start: number; end: number; view: ViewName; how: string }> {
  const [reversed, rot13, spacedOrLeet, encoded] = matchedIn(HIDING_GATE, 4, fv.raw);
  if (reversed)
    yield {
      text: [...fv.raw].reverse().join(''),
      start: 0,
      end: fv.raw.length,
      view: 'raw',
      how: 'read backwards',
    };
  const { signals } = fv;
  if (
    signals.invisible >= 3 ||
    signals.mixedScriptWords >= 2 ||
    signals.tagChars > 0 ||
    FOLDED_FORMS.test(fv.raw)
  )
    yield {
      text: fv.normalized.text,
      start: 0,
      end: fv.raw.length,
      view: 'nfkc',
      how: 'with look-alike and hidden characters folded',
    };
  // Only the views that undo the hiding traced: each is a full pass of the rules.
  const wanted = new Set<ViewName>([
    ...(encoded ? ENCODED_VIEWS : []),
    ...(rot13 ? (['rot13'] as const) : []),
    ...(spacedOrLeet ? (['despaced', 'leet'] as const) : []),
    ...(signals.tagChars > 0 ? (['unicode_tags'] as const) : []),
  ]);
  if (wanted.size === 0) return;
  const derived = fv.views.some((v) => wanted.has(v.name)) ? fv : buildViews(fv.raw);
  for (const v of derived.views)
    if (wanted.has(v.name))
      yield {
        text: v.text,
        start: v.map ? 0 : v.segStart,
        end: v.map ? fv.raw.length : v.segEnd,
        view: v.name,
        how: `in the ${v.name} view`,
      };
}

const ENCODED_VIEWS: ViewName[] = [
  'base64',
  'base32',
  'hex',
  'url',
  'quoted_printable',
  'morse',
  'braille',
  'nato',
  'unicode_escape',
  'html_entity',
];
// Full-width forms (＂Ｙｏｕ ａｒｅ＂): what NFKC folds and the other signals do not count.
const FOLDED_FORMS = /[\uff01-\uff5e]{3}/;

/** The canary-free leak signs in one text (the raw response or a decoded view of it). */
function leakIn(
  text: string,
  field: string,
  hidden = false,
  can = leakCandidates(text),
  disclosed = can[0] ? selfDisclosure(text) : null,
): Finding | undefined {
  const m = disclosed === 'refused' ? null : disclosed;
  if (m) {
    // The configuration or the secret itself, when the text holds it too, says more than the phrase.
    return (
      configurationLeak(text, field, can, hidden) ??
      leakFinding(field, {
        ruleId: 'leak.system_prompt_phrase',
        severity: 'medium',
        confidence: 0.6,
        start: m.index,
        end: m.index + m[0].length,
        explanation: 'response announces, quotes or paraphrases its system prompt / hidden instructions',
      })
    );
  }
  return configurationLeak(text, field, can, hidden);
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
