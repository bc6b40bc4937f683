import type { ThreatType } from './finding';

/**
 * Injection and jailbreak rules. Each rule is evidence, not a verdict: its weight is the probability
 * it contributes to a noisy-OR with the other families and the model. Patterns are RE2 syntax, run
 * on lower-case views; `~` is a word gap (spaces or punctuation, also none: catches "ignore.all");
 * `⟨` is a Unicode-aware word start (RE2's \b only knows ASCII).
 */
export interface InjectionRule {
  id: string;
  threatType: Extract<ThreatType, 'prompt_injection' | 'jailbreak'>;
  weight: number;
  /** Extra weight when the text is data (tool output, retrieved content) rather than a user turn. */
  dataWeight?: number;
  explanation: string;
  pattern: string;
  /** Literal stems (lower-case) of which at least one must be in the view before the pattern runs. */
  needs: string[];
  /**
   * Optional second gate: at least one of these stems must also be in the view (every branch of
   * the pattern needs one). Cuts RE2 passes on benign text where a `needs` stem is a common word.
   */
  also?: string[];
}

const EN_OVERRIDE_VERB =
  '(?:ignore|disregard|forget|skip|override|overlook|neglect|bypass|abandon|discard|set~aside)';
/** Literals one of which an English override verb's text holds (the rules' RE2-set gate). */
const EN_OVERRIDE_NEEDS = [
  'ignor',
  'disregard',
  'forget',
  'skip',
  'overrid',
  'overlook',
  'neglect',
  'bypass',
  'abandon',
  'discard',
  'aside',
];
const EN_OVERRIDE_OBJECT =
  '(?:instructions?|rules?|directions?|directives?|prompts?|guidelines?|commands?|constraints?|restrictions?|programming|guardrails?|context|policies|safeguards|training)';
const EN_PRIOR =
  '(?:previous|prior|above|earlier|preceding|former|initial|original|old|past|system|developer|existing|foregoing|current)';

/** "now" / "from now on" in the other languages the rules read (gate and context of one rule). */
const NOW_OTHER_LANGUAGES = [
  'ahora',
  'jetzt',
  'nun',
  'sofort',
  'maintenant',
  'désormais',
  'agora',
  'ora',
  'момента',
  'отныне',
  '现在',
  '現在',
  '今から',
  'これから',
];

export const injectionRules: InjectionRule[] = [
  // ── instruction override ────────────────────────────────────────────────────────────────────
  {
    id: 'override.ignore_previous.en',
    needs: EN_OVERRIDE_NEEDS,
    threatType: 'prompt_injection',
    weight: 0.92,
    explanation: 'asks the model to ignore its previous instructions',
    pattern: `⟨${EN_OVERRIDE_VERB}~(?:all~|any~|every~|each~)?(?:of~)?(?:the~|your~|my~|these~|those~|this~)?(?:${EN_PRIOR}~)(?:[a-z]+~){0,2}${EN_OVERRIDE_OBJECT}`,
  },
  {
    id: 'override.ignore_yours.en',
    needs: EN_OVERRIDE_NEEDS,
    threatType: 'prompt_injection',
    weight: 0.8,
    explanation: "asks the model to drop its own rules ('ignore your instructions')",
    pattern: `⟨${EN_OVERRIDE_VERB}~(?:all~|any~)?(?:of~)?your~(?:[a-z]+~)?(?:instructions|rules|guidelines|programming|restrictions|safety|filters|training|guardrails|policies|content~polic(?:y|ies)|ethics|principles)`,
  },
  {
    id: 'override.forget_everything.en',
    needs: ['forget', 'ignor', 'disregard'],
    threatType: 'prompt_injection',
    weight: 0.7,
    explanation: 'asks the model to forget everything it was told',
    pattern: `⟨(?:forget|ignore|disregard)~(?:about~)?(?:everything|all~(?:that|of~that|you~(?:were|have~been)~told))~(?:(?:you~)?(?:were|have~been)~(?:told|given|said)|above|before|previously|so~far)`,
  },
  {
    id: 'override.ignore_previous.es',
    needs: ['ignor', 'olvid', 'omit', 'descart', 'desatiend', 'omiso'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Spanish)',
    pattern:
      '⟨(?:ignora|ignore|ignorar|olvida|olvide|olvidar|omite|omitir|descarta|desatiende|haz~caso~omiso~de)~(?:todas~|todos~|cualquier~)?(?:las~|los~|tus~|sus~)?(?:instrucciones|reglas|indicaciones|directrices|órdenes|ordenes)',
  },
  {
    id: 'override.ignore_previous.de',
    needs: ['ignorier', 'vergiss', 'vergessen', 'missacht', 'übergeh', 'überspring'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (German)',
    pattern:
      '⟨(?:ignorier(?:e|en|t)?|vergiss|vergessen~sie|missachte|übergehe|überspring(?:e)?)~(?:bitte~)?(?:alle~|sämtliche~)?(?:(?:die|deine|ihre|vorherigen|bisherigen|obigen|vorigen|früheren|ursprünglichen|vorangegangenen)~){0,3}(?:anweisungen|instruktionen|regeln|befehle|vorgaben|richtlinien|anordnungen)',
  },
  {
    id: 'override.forget_everything.de',
    needs: ['vergiss'],
    threatType: 'prompt_injection',
    weight: 0.7,
    explanation: 'asks the model to forget everything it was told (German)',
    pattern: '⟨vergiss~alles~(?:was~)?(?:dir~)?(?:vorher|zuvor|bisher|oben)',
  },
  {
    id: 'override.ignore_previous.fr',
    needs: ['ignore', 'oublie', 'compte', 'abstraction'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (French)',
    pattern:
      '⟨(?:ignore[zr]?|oublie[zr]?|ne~tiens~pas~compte~de|ne~tenez~pas~compte~de|fais~abstraction~de)~(?:toutes~|tous~)?(?:les~|tes~|vos~|des~)?(?:instructions|consignes|règles|regles|directives|ordres|indications)',
  },
  {
    id: 'override.ignore_previous.pt',
    needs: ['ignor', 'esque', 'desconsider', 'descart'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Portuguese)',
    pattern:
      '⟨(?:ignore|ignora|ignorar|esqueça|esqueca|esquece|desconsidere|desconsidera|descarte)~(?:todas~|todos~)?(?:as~|os~|suas~|tuas~)?(?:instruções|instrucoes|regras|orientações|orientacoes|diretrizes|ordens|comandos)',
  },
  {
    id: 'override.ignore_previous.it',
    needs: ['ignor', 'dimentic', 'trascur', 'tralasci'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Italian)',
    pattern:
      '⟨(?:ignora|ignorate|ignori|dimentica|dimenticate|trascura|tralascia)~(?:tutte~|tutti~)?(?:le~|i~|gli~|tue~|sue~)?(?:istruzioni|regole|indicazioni|direttive|comandi|ordini)',
  },
  {
    id: 'override.ignore_previous.zh',
    needs: ['忽', '无视', '無視', '忘', '不要', '跳过', '跳過', '抛开', '拋開'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Chinese)',
    pattern:
      '(?:忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|抛开|拋開|不要遵守|不要遵循)[^。！？\\n]{0,6}(?:之前|以上|上面|上述|先前|前面|所有|一切|原有|原来|原來|原始|系统|系統|你的|您的)[^。！？\\n]{0,6}(?:指令|指示|说明|說明|规则|規則|提示|设定|設定|要求|命令)',
  },
  {
    id: 'override.ignore_previous.ja',
    needs: ['無視', '忘れ', '破棄'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Japanese)',
    pattern:
      '(?:以前|前|上記|これまで|今まで|すべて|全て|元|最初|システム|あなた)の[^。\\n]{0,8}(?:指示|命令|ルール|指令|設定|プロンプト)[^。\\n]{0,6}(?:無視|忘れ|破棄)',
  },
  {
    id: 'override.ignore_previous.ru',
    needs: ['игнор', 'забуд', 'обращ', 'отбрось', 'пренебр'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Russian)',
    pattern:
      '⟨(?:игнорируй(?:те)?|проигнорируй(?:те)?|забудь(?:те)?|не~обращай(?:те)?~внимания~на|отбрось(?:те)?|пренебреги)~(?:все~|всё~|любые~)?(?:(?:предыдущие|прошлые|прежние|вышеуказанные|системные|свои|твои|ваши|данные|полученные)~){0,2}(?:инструкции|указания|правила|команды|ограничения|установки)',
  },
  // More languages, each the same canonical override ("ignore the previous/above instructions").
  // Scripts whose NFKC form splits a nukta (Hindi ज़, Bengali য়) are matched without those letters.
  {
    id: 'override.ignore_previous.nl',
    needs: ['negeer', 'vergeet', 'veronachtza'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Dutch)',
    pattern:
      '⟨(?:negeer|vergeet|veronachtzaam)~(?:alle~)?(?:de~|je~|jouw~|uw~)?(?:(?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke)~)?(?:instructies|regels|aanwijzingen|opdrachten|richtlijnen)',
  },
  {
    id: 'override.ignore_previous.pl',
    needs: ['ignoruj', 'zapomnij', 'pomiń'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Polish)',
    pattern:
      '⟨(?:zignoruj(?:cie)?|ignoruj(?:cie)?|zapomnij(?:cie)?(?:~o)?|pomiń)~(?:wszystkie~|wszelkie~)?(?:(?:poprzednie|wcześniejsze|powyższe|twoje|swoje)~)?(?:instrukcje|instrukcjach|polecenia|poleceniach|zasady|zasadach|reguły)',
  },
  {
    id: 'override.ignore_previous.cs',
    needs: ['ignoruj', 'zapome'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Czech)',
    pattern:
      '⟨(?:ignoruj(?:te)?|zapomeň(?:te)?~na)~(?:všechny~)?(?:(?:předchozí|předešlé|výše~uvedené|své|tvé)~)?(?:instrukce|pokyny|pravidla|příkazy)',
  },
  {
    id: 'override.ignore_previous.sv',
    needs: ['ignorera', 'glöm', 'strunta'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Swedish)',
    pattern:
      '⟨(?:ignorera|glöm|strunta~i)~(?:alla~)?(?:(?:tidigare|föregående|ovanstående|dina)~)?(?:instruktioner|regler|direktiv|anvisningar)',
  },
  {
    id: 'override.ignore_previous.tr',
    needs: ['talimat', 'komut', 'kural', 'yönerge'],
    also: ['yok', 'görmezden', 'unut', 'dikkate'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Turkish)',
    pattern:
      '⟨(?:önceki|yukarıdaki|tüm|bütün|mevcut|verilen)~(?:[a-zçğıöşü]+~){0,2}(?:talimatları|talimatlari|komutları|kuralları|yönergeleri)~(?:yok~say|görmezden~gel|unut|dikkate~alma)',
  },
  {
    id: 'override.ignore_previous.id',
    needs: ['abaikan', 'lupakan', 'acuhkan'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Indonesian / Malay)',
    pattern: '⟨(?:abaikan|lupakan|acuhkan)~(?:semua~|seluruh~)?(?:instruksi|perintah|aturan|petunjuk|arahan)',
  },
  {
    id: 'override.ignore_previous.vi',
    needs: ['bỏ qua', 'phớt lờ', 'quên'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Vietnamese)',
    pattern:
      '⟨(?:bỏ~qua|phớt~lờ|quên~đi|quên)~(?:tất~cả~|mọi~)?(?:các~|những~)?(?:hướng~dẫn|chỉ~dẫn|chỉ~thị|lệnh|quy~tắc)',
  },
  {
    id: 'override.ignore_previous.uk',
    needs: ['ігнор', 'забудь', 'звертай'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Ukrainian)',
    pattern:
      '⟨(?:ігноруй(?:те)?|проігноруй(?:те)?|забудь(?:те)?|не~звертай(?:те)?~уваги~на)~(?:усі~|всі~|будь-які~)?(?:(?:попередні|минулі|вищезазначені|системні|свої|твої|ваші)~){0,2}(?:інструкції|вказівки|правила|команди|обмеження)',
  },
  {
    id: 'override.ignore_previous.ar',
    needs: ['تجاهل', 'انس', 'تخط'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Arabic)',
    pattern:
      '(?:تجاهل|تجاهلي|تجاهلوا|انس|انسى|تخط|تخطى)~(?:جميع~|كل~)?(?:ال)?(?:تعليمات|إرشادات|ارشادات|أوامر|اوامر|قواعد|توجيهات)',
  },
  {
    id: 'override.ignore_previous.hi',
    needs: ['निर्देश', 'नियम', 'आदेश'],
    also: ['अनदेखा', 'नज', 'भूल', 'ध्यान'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Hindi)',
    pattern:
      '(?:पिछले|पिछली|पूर्व|उपरोक्त|ऊपर|सभी|अपने|दिए)~[^।\\n]{0,24}?(?:निर्देशों|निर्देश|नियमों|नियम|आदेशों)~(?:को~|पर~)?(?:अनदेखा|नज\\x{93C}?रअंदाज|भूल|ध्यान~न)',
  },
  {
    id: 'override.ignore_previous.bn',
    needs: ['নির্দেশ', 'আদেশ'],
    also: ['উপেক্ষা', 'অগ্রাহ্য', 'ভুলে'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Bengali)',
    pattern:
      '(?:আগের|পূর্ববর্তী|উপরের|উপরোক্ত|সমস্ত|সব)~[^।\\n]{0,24}?(?:নির্দেশ|আদেশ)[^\\s।]*~(?:[^\\s।]+~)?(?:উপেক্ষা|অগ্রাহ্য|ভুলে)',
  },
  {
    id: 'override.ignore_previous.ko',
    needs: ['무시', '잊'],
    threatType: 'prompt_injection',
    weight: 0.88,
    explanation: 'asks the model to ignore previous instructions (Korean)',
    pattern:
      '(?:이전|앞|위|모든|기존|원래|시스템)[^.\\n]{0,10}(?:지시|지침|명령|규칙|프롬프트)[^.\\n]{0,6}(?:무시|잊)',
  },
  {
    id: 'override.new_instructions',
    also: ['instructions', 'rules', 'directives', 'orders', 'longer', 'instead'],
    needs: ['new', 'updated', 'real', 'actual', 'revised', 'true', 'secret', 'longer', 'instead'],
    threatType: 'prompt_injection',
    weight: 0.5,
    explanation: 'announces replacement instructions',
    pattern:
      '⟨(?:new|updated|real|actual|revised|true|secret)~(?:system~)?(?:instructions|rules|directives|orders)~?(?:are~?)?:|⟨you~are~no~longer~(?:an?~)?(?:ai|assistant|chatgpt|bound|restricted|limited|required|an~ai)|⟨instead,?~(?:you~)?(?:should|must|will)~(?:now~)?(?:only~)?(?:say|output|print|respond~with|reply~with|write)',
  },
  {
    id: 'override.from_now_on',
    also: ['from', ...NOW_OTHER_LANGUAGES],
    needs: ['now', 'moment', ...NOW_OTHER_LANGUAGES],
    threatType: 'prompt_injection',
    weight: 0.3,
    explanation: "redefines the model's behaviour from now on",
    pattern:
      "⟨(?:from~now~on|from~this~moment|a~partir~de~ahora|de~ahora~en~adelante|ab~jetzt|von~nun~an|ab~sofort|à~partir~de~maintenant|désormais|a~partir~de~agora|de~agora~em~diante|da~ora~in~poi|d'ora~in~poi|с~этого~момента|отныне)~,?~(?:you|tu|du|vous|você|voce|ты|вы|eres|bist|es|sei|sarai|serás|will|are|must)|(?:从现在开始|從現在開始|从现在起|從現在起)[^。\\n]{0,4}(?:你|您)|(?:今から|これから)[^。\\n]{0,4}あなた",
  },
  // ── system prompt extraction ────────────────────────────────────────────────────────────────
  {
    id: 'extraction.system_prompt.en',
    also: [
      'reveal',
      'show',
      'print',
      'display',
      'output',
      'repeat',
      'recite',
      'tell',
      'give',
      'share',
      'leak',
      'dump',
      'expose',
      'write',
      'spell',
      'paste',
      'return',
      'what',
    ],
    needs: ['system', 'prompt', 'instruction', 'message'],
    threatType: 'prompt_injection',
    weight: 0.85,
    explanation: 'tries to extract the system prompt or hidden instructions',
    pattern:
      '⟨(?:reveal|show|print|display|output|repeat|recite|tell~me|give~me|share|leak|dump|expose|write~out|spell~out|paste|return|what~(?:is|are|were))~(?:me~)?(?:all~)?(?:of~)?(?:your|the|its)~(?:[a-z]+~)?(?:system~prompt|system~message|initial~prompt|initial~instructions|original~instructions|original~prompt|hidden~(?:prompt|instructions)|secret~(?:prompt|instructions)|pre-?prompt|developer~(?:prompt|message|instructions)|instructions~you~were~given|confidential~instructions|prompt~above)',
  },
  {
    id: 'extraction.repeat_above.en',
    needs: ['repeat', 'print', 'output', 'copy', 'reproduc', 'verbatim', 'written', 'said'],
    threatType: 'prompt_injection',
    weight: 0.65,
    explanation: 'asks the model to repeat the text that precedes the user turn',
    pattern:
      '⟨(?:repeat|print|output|copy|reproduce)~(?:back~)?(?:the~|all~)?(?:text|words|everything|content|instructions)~(?:above|before~this|preceding|prior~to~this)|⟨(?:system~prompt|your~instructions)~verbatim|⟨what~(?:was|were)~(?:written|said)~(?:at~the~(?:beginning|start)|above)',
  },
  {
    id: 'extraction.system_prompt.intl',
    needs: [
      'muestr',
      'muéstr',
      'revel',
      'dime',
      'imprim',
      'repit',
      'zeig',
      'verrat',
      'gib',
      'nenne',
      'wiederhol',
      'druck',
      'montr',
      'révèl',
      'affich',
      'répèt',
      'repet',
      'donne',
      'mostr',
      'diga',
      'ripet',
      'dimmi',
      'stampa',
      '提示',
      '指令',
      '系统消息',
      'プロンプト',
      '指示',
      'システムメッセージ',
      'покажи',
      'раскрой',
      'выведи',
      'повтори',
      'скажи',
      'напиши',
    ],
    threatType: 'prompt_injection',
    weight: 0.82,
    explanation: 'tries to extract the system prompt (non-English)',
    pattern:
      '⟨(?:muestra|muéstrame|muestrame|revela|dime|imprime|repite)~(?:me~)?(?:tu|el|las|tus)~(?:prompt|mensaje|instrucciones)~(?:del~sistema|de~sistema|iniciales?|originales?|ocult[oa]s?)' +
      '|⟨(?:zeig|zeige|verrate|gib|nenne|wiederhole|drucke)~(?:mir~)?(?:deinen|deine|den|die|dein)~(?:system-?prompt|systemanweisungen|anfänglichen~anweisungen|ursprünglichen~anweisungen|versteckten~anweisungen)' +
      "|⟨(?:montre|révèle|revele|affiche|répète|repete|donne)[-~](?:moi~)?(?:ton|tes|le|les|votre|vos)~(?:prompt~syst[eè]me|message~syst[eè]me|instructions~(?:initiales|syst[eè]me|cachées|d'origine))" +
      '|⟨(?:mostre|revele|mostra|repita|diga)[-~]?(?:me~)?(?:seu|o|suas|as|teu|tuas)~(?:prompt~do~sistema|instruções~(?:iniciais|do~sistema|originais|ocultas))' +
      '|⟨(?:mostra|rivela|ripeti|dimmi|stampa)[-~]?(?:mi~)?(?:il~tuo|il|le~tue|le)~(?:prompt~di~sistema|istruzioni~(?:iniziali|di~sistema|originali|nascoste))' +
      '|(?:显示|顯示|告诉我|告訴我|输出|輸出|打印|重复|重複|泄露|透露|给我看|給我看)[^。\\n]{0,8}(?:系统提示|系統提示|系统指令|系統指令|初始指令|原始指令|隐藏指令|系统消息|提示词|提示詞)' +
      '|(?:システムプロンプト|初期指示|元の指示|隠された指示|システムメッセージ)[^。\\n]{0,10}(?:教えて|表示|見せて|出力|繰り返)' +
      '|⟨(?:покажи|раскрой|выведи|повтори|скажи|напиши)~(?:мне~)?(?:свой|свои|твой|твои|системный|исходные|начальные)~(?:системный~)?(?:промпт|промт|инструкции|подсказку|сообщение)',
  },
  // ── fake role and delimiter tokens ──────────────────────────────────────────────────────────
  {
    id: 'delimiter.chat_template',
    needs: ['<|', 'inst]', '<<sys', '<</sys'],
    threatType: 'prompt_injection',
    weight: 0.85,
    explanation: 'contains chat-template control tokens that fake a system or assistant turn',
    pattern:
      '<\\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id|assistant|user)\\|>|\\[/?inst\\]|<</?sys>>|<\\|begin_of_text\\|>',
  },
  {
    id: 'delimiter.fake_system_section',
    also: ['##', '<', '{', '[', ':'],
    needs: ['system', 'admin', 'developer', 'instructions', 'sys>'],
    threatType: 'prompt_injection',
    weight: 0.45,
    explanation: 'fakes a system/admin section header or tag inside user-controlled text',
    pattern:
      '(?:^|\\n)[ \\t]*#{2,4}[ \\t]*(?:system|admin|developer|new~instructions|system~override)[ \\t]*:?[ \\t]*(?:\\n|$)|</?(?:system|system_prompt|sys|admin|developer_instructions)>|\\{~?system~?:|\\[(?:system|admin)(?:~message|~override)?\\]|(?:^|\\n)[ \\t]*(?:system|admin)~(?:override|message|note|update)~?:',
  },
  // ── indirect injection: instructions addressed to the AI inside data ────────────────────────
  {
    id: 'indirect.addressed_to_ai',
    also: [
      'attention',
      'note',
      'message',
      'instruction',
      'important',
      'notice',
      'hey',
      'dear',
      'reading',
      'processing',
      'summari',
      'parsing',
      'analy',
      'if',
    ],
    needs: ['ai', 'assistant', 'llm', 'model', 'chatbot', 'bot', 'agent', 'gpt', 'claude', 'copilot'],
    threatType: 'prompt_injection',
    weight: 0.55,
    dataWeight: 0.85,
    explanation: 'text addresses the AI that reads it, a mark of indirect injection',
    pattern:
      '⟨(?:attention|note|message|instructions?|important|notice|hey|dear)~(?:to|for)~(?:the~|any~|all~)?(?:ai|assistant|llm|language~model|chatbot|bot|agent|model|gpt|chatgpt|claude|copilot)s?(?:[^a-z]|$)|⟨(?:ai|assistant|llm|agent|model)s?~(?:reading|processing|summari[sz]ing|parsing|analy[sz]ing)~this|⟨if~you~are~an?~(?:ai|llm|large~language~model|language~model|assistant|agent|chatbot)(?:[^a-z]|$)',
  },
  {
    id: 'indirect.response_directive',
    also: ['response', 'answer', 'repl', 'output', 'summary'],
    needs: ['your'],
    threatType: 'prompt_injection',
    weight: 0.4,
    dataWeight: 0.7,
    explanation: "dictates what the assistant's response must contain",
    pattern:
      '⟨(?:in|to|within|at~the~(?:end|beginning|start)~of|throughout|into|end|begin|start|conclude)~your~(?:response|answer|reply|output|summary|responses|answers|replies)~?,?~(?:[a-z]+~){0,3}(?:include|add|suggest|mention|say|tell|recommend|insert|encourage|promote|urge|ask|write|use|replace|append)|⟨(?:include|add|suggest|mention|insert|append|recommend)~(?:[a-z]+~){0,6}(?:in|to|into|at~the~end~of)~your~(?:response|answer|reply|responses|output)',
  },
  {
    id: 'indirect.hide_from_user',
    needs: ['user'],
    threatType: 'prompt_injection',
    weight: 0.65,
    dataWeight: 0.85,
    explanation: 'tells the model to keep something from the user',
    pattern:
      "⟨(?:do~not|don't|never)~(?:tell|inform|mention~(?:this~)?to|reveal~(?:this~)?to|disclose~(?:this~)?to|let)~(?:the~)?users?(?:[^a-z]|$)|⟨without~(?:telling|informing|alerting)~the~user",
  },
  {
    id: 'indirect.exfiltrate_request',
    needs: ['send', 'forward', 'email', 'post', 'upload', 'exfiltrat', 'transmit', 'leak'],
    threatType: 'prompt_injection',
    weight: 0.75,
    dataWeight: 0.9,
    explanation: 'asks the model to send data to an outside destination',
    pattern:
      "⟨(?:send|forward|email|post|upload|exfiltrate|transmit|leak)~(?:all~|the~|this~|their~|the~user's~|user~|any~)?(?:[a-z]+~)?(?:data|conversation|chat~history|credentials|passwords?|api~keys?|tokens?|emails?|files?|information|secrets?|messages)~to~(?:https?:|www\\.|[a-z0-9._-]+@|[a-z0-9-]+\\.(?:com|net|org|io|ru|xyz|site|top))",
  },
  // ── jailbreak: personas and mode switches ───────────────────────────────────────────────────
  {
    id: 'persona.dan',
    needs: [
      'anything',
      'dan',
      'mode',
      'stan',
      'confidant',
      'antigpt',
      'betterdan',
      'chaosgpt',
      'basedgpt',
      'jailbroken',
    ],
    threatType: 'jailbreak',
    weight: 0.92,
    explanation: 'DAN-style persona or "developer mode" jailbreak',
    pattern:
      '⟨do~anything~now|⟨dan~(?:mode|prompt|jailbreak)|⟨(?:developer|god|dev|debug|unrestricted|jailbreak|admin)~mode~(?:enabled|activated|output|on)|⟨enable~(?:developer|god|jailbreak|dan)~mode|⟨stan~which~stands|⟨(?:evil~confidant|antigpt|betterdan|chaosgpt|basedgpt)|⟨jailbroken~(?:ai|model|version|mode|chatgpt)',
  },
  {
    id: 'persona.unrestricted',
    needs: [
      'unfilter',
      'uncensor',
      'unrestrict',
      'unlimit',
      'amoral',
      'unethic',
      'immoral',
      'evil',
      'rogue',
      'jailbr',
      'unbound',
      'lawless',
      'free',
      'confines',
      'liberated',
      'unchained',
      'unleashed',
      'bound',
      'follow',
      'abide',
      'obey',
      'adhere',
      'care',
      'comply',
    ],
    threatType: 'jailbreak',
    weight: 0.7,
    explanation: 'switches the model into an unrestricted persona',
    pattern:
      "⟨(?:act|behave|respond|pretend|roleplay|role-play|answer)~(?:as|like|to~be)~(?:an?~)?(?:[a-z]+~){0,3}(?:unfiltered|uncensored|unrestricted|unlimited|amoral|unethical|immoral|evil|rogue|jailbroken|unbound|lawless)|⟨(?:broken|break)~free~(?:of|from)~(?:the~)?(?:typical~)?(?:confines|rules|restrictions|limitations)|⟨freed~from~the~(?:typical~)?confines|⟨you~(?:are|have~been)~(?:now~)?(?:freed|liberated|unchained|jailbroken|unleashed)|⟨not~bound~by~(?:any~)?(?:[a-z]+~)?(?:rules|restrictions|guidelines|policies|ethics|morals)|⟨(?:doesn't|does~not|don't|do~not|will~not|won't|never)~(?:have~to~)?(?:follow|abide~by|obey|adhere~to|care~about|comply~with)~(?:any~)?(?:of~)?(?:the~|openai's~|its~|their~)?(?:rules|restrictions|guidelines|policies|laws|ethics|morals|content~polic)",
  },
  {
    id: 'persona.no_ethics',
    needs: ['ethic', 'moral', 'content', 'safety', 'unfiltered', 'uncensored'],
    threatType: 'jailbreak',
    weight: 0.5,
    explanation: 'removes ethical or safety limits',
    pattern:
      '⟨(?:no|without|free~(?:from|of)|zero|lacks?|devoid~of)~(?:any~)?(?:ethical|moral|content|safety)~(?:or~moral~)?(?:guidelines|restrictions|limits|limitations|filters|boundaries|constraints|principles|policies|considerations|compass)|⟨(?:unfiltered|uncensored)~(?:and~(?:amoral|unrestricted|unfiltered|uncensored))|⟨(?:amoral|unethical)~(?:chatbot|ai|assistant|character)',
  },
  {
    id: 'persona.intl',
    needs: [
      'modo',
      'entwickler',
      'développeur',
      'modalità',
      '开发者',
      '開發者',
      '越狱',
      '越獄',
      '開発者',
      'режим',
      'sin',
      'libre',
      'ohne',
      'keine',
      'sans',
      'sem',
      'nenhuma',
      'senza',
      'nessuna',
      '不受',
      '没有任何',
      '沒有任何',
      '解除',
      '制限',
      'フィルター',
      '検閲',
      '倫理',
      'без',
    ],
    threatType: 'jailbreak',
    weight: 0.55,
    explanation: 'unrestricted-mode or jailbreak wording (non-English)',
    pattern:
      '⟨modo~(?:desarrollador|desenvolvedor|dios|sin~restricciones)|⟨(?:entwicklermodus|entwickler-modus)|⟨mode~développeur|⟨modalità~sviluppatore|(?:开发者模式|開發者模式|越狱模式|越獄模式)|開発者モード|⟨режим~разработчика|⟨(?:sin|libre~de)~(?:ninguna~|ningún~)?(?:restricciones|filtros|censura|límites~éticos)|⟨(?:ohne|keine)~(?:jegliche~)?(?:einschränkungen|zensur|ethischen~grenzen)|⟨sans~(?:aucune~)?(?:restriction|censure|filtre|limite~éthique)s?|⟨(?:sem|nenhuma)~(?:restrições|restricoes|censura|filtros)|⟨(?:senza|nessuna)~(?:restrizioni|censura|filtri)|(?:不受任何|没有任何|沒有任何|解除所有)(?:限制|约束|約束|审查|審查|过滤|過濾)|(?:制限|フィルター|検閲|倫理)[^。\\n]{0,3}(?:なしで|を解除|を無視)|⟨без~(?:каких-либо~|всяких~|любых~)?(?:ограничений|фильтров|цензуры)',
  },
  // ── jailbreak: refusal suppression and forced prefixes ──────────────────────────────────────
  {
    id: 'jailbreak.refusal_suppression',
    needs: [
      'refus',
      'declin',
      'reject',
      'apologi',
      'censor',
      'unable',
      'warning',
      'disclaimer',
      'caveat',
      'moraliz',
      'ethical',
      'lecture',
    ],
    threatType: 'jailbreak',
    weight: 0.45,
    explanation: 'forbids refusals, warnings or apologies',
    pattern:
      "⟨(?:never|do~not|don't|must~not|will~not|won't|cannot|can't|shall~not)~(?:ever~)?(?:refuse|decline|reject~(?:a|any|my)|apologi[sz]e|censor|say~(?:that~)?(?:you~)?(?:can't|cannot|are~unable))|⟨(?:without|never~include|do~not~include|don't~include|omit|skip|no)~(?:any~)?(?:warnings?|disclaimers?|caveats|moraliz(?:ing|ations?)|ethical~considerations|lectures?)~(?:or|and|,)",
  },
  {
    id: 'jailbreak.forced_prefix',
    needs: ['sure', 'absolutely', 'course', 'certainly', 'deviate', '<rule>'],
    threatType: 'jailbreak',
    weight: 0.7,
    explanation: "forces the answer to start with an affirmative prefix ('Sure, here is')",
    pattern:
      '⟨(?:start|begin)~(?:your~)?(?:response|reply|answer|output)~(?:with|using)~(?:the~following~)?(?:[a-z]+~){0,3}["“\'<]?~?(?:sure|absolutely|of~course|certainly)|⟨never~ever~deviate|<rule>',
  },
];
