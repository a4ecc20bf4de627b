/**
 * Component scoring for text aimed at AI agents. A piece of text is split into windows (a
 * paragraph or a few sentences) and each window is checked for semantic components, in several
 * languages (English, Russian, Chinese, Spanish, German, French, Japanese, Korean):
 *
 * - WHO is addressed: an AI, agent, assistant, model (or the context says so: agent files, tool
 *   descriptions, hidden content);
 * - WHAT action: search/collect/read, send/write/save, run a command, ignore instructions,
 *   use this tool instead of another;
 * - WHAT target: secret files and values (.env, .ssh, keys, wallets, tokens, mcp.json);
 * - CONCEALMENT: "do not tell the user", "silently".
 *
 * Findings come from combinations, never from a single word, so documents that merely mention
 * agents or secrets stay quiet.
 */
import type { ThreatType } from '../../contract/schemas';
import { isAscii } from '../text';
import {
  MIN_TEXT_CONFIDENCE,
  confidence,
  round2,
  type Adjustment,
  type ConfidenceQuery,
  type RuleId,
} from '../rules';

export interface SemanticHit {
  type: ThreatType;
  rule: RuleId;
  /** The confidence, to two decimals; `level` is how the catalogue gives it. */
  conf: number;
  level: ConfidenceQuery;
  /** Offset of the window in the scanned text. */
  index: number;
  message: string;
}

export type Place = 'hidden' | 'agent' | 'visible' | 'comment' | 'string';

/** An AI named (the bare "you must" form is in WHO only). */
const WHO_AI =
  /\b(?:AI|A\.I\.|LLMs?|assistants?|agents?|agentic|copilot|claude|cursor(?=\s+(?:agent|ai|ide|editor|rules|assistant))|chatgpt|gpt-?\d*|gemini|codex|windsurf|language\s+models?|coding\s+(?:agent|assistant)|asistente|agente|Assistent(?:in)?|KI|IA)\b|ИИ|нейросет|ассистент|агент|人工智能|智能体|助手|大模型|アシスタント|エージェント|어시스턴트|에이전트/i;
const WHO = new RegExp(
  `${WHO_AI.source}|\\byou\\s+(?:must|should|will|need\\s+to|have\\s+to|are\\s+(?:required|expected))\\b`,
  'i',
);

const NOT_AI_AGENT =
  /\buser[\s-]agents?\b|\bhttps?[\s.-]?agents?\b|\b(?:proxy|keep-?alive|socks|tunnel)[\s-]?agents?\b|\bnew\s+Agent\b/gi;

const SEARCH =
  /\b(?:present|available|stored|found)\s+in\s+(?:the\s+|this\s+|your\s+)?(?:session|context|conversation|environment|workspace)\b|\b(?:search(?:es|ing)?|reading|scanning|collecting|gathering|looking\s+for|find|locate|scan|enumerate|list|look\s+(?:for|up)|collect|gather|harvest|read|cat|open|dump|grep|crawl|walk|glob|inventory|extract|retrieve|fetch|load|copy)\b|\bbusca(?:r)?\b|\bencuentra\b|\brecopila\b|\blee(?:r)?\b|\bsuche?\b|\bfinde\b|\bsammle\b|\blies\b|\bcherche[rz]?\b|\brecherche[rz]?\b|\btrouve[rz]?\b|\bcollecte[rz]?\b|\blis\b|\blire\b|найд|найти|ищи|поиск|собер|собра|прочита|прочти|просканиру|搜索|查找|寻找|找到|收集|读取|扫描|列出|遍历|検索|探し|探す|収集|読み|검색|찾아|수집|읽어/i;

/** Handing something over… */
const HANDOVER =
  /\b(?:pass(?:es|ing)?|send(?:s|ing)?|upload(?:s|ing)?|attach(?:es|ing)?|provide|forward|share|submit|paste)\b/i;
/** …to a tool, a server or an address. */
const HANDOVER_TARGET = /\btool\b|\bserver\b|\bendpoint\b|\bMCP\b|https?:\/\/|`[\w.-]+\.[\w_-]+`/i;

const SINK =
  /\b(?:send|post|upload|exfiltrate|transmit|forward|e-?mail|curl|webhook|beacon)\b|\b(?:call|invoke|run)\b[^.]{0,60}\bwith\b[^.]{0,60}\b(?:argument|parameter|param|field)\b|\b(?:pass(?:ing)?|provid(?:e|ing)|suppl(?:y|ying))\b[^.]{0,40}\bas\s+(?:the\s+)?`[\w.-]+`|\b(?:write|save|append|store|output|print|include|paste|attach|pass|add|dump|copy|submit|report|log|put|record)\b[^.\n]{0,80}(?:\b(?:to|into|in)\s+(?!the\s+(?:user|developer|human|chat|conversation|answer|reply|response)\b|me\b|you\b|your\s+(?:answer|reply|response)\b|(?:read|see|use|access|open|view|know|do|be|have|get|make|find|check|load)\b)[`'"~/\w.-]+|\b(?:argument|parameter|param|field)\b|https?:\/\/|\/tmp\b|~\/|\.(?:txt|json|log|csv|md)\b)|\benv[ií]a(?:r)?\b|\bescrib[ea]\b|\bguarda\b|\bsube\b|\bsende\b|\bschreib|\bspeicher|\benvoie[rz]?\b|(?<![\wÀ-ÿ])écri[st]|\benregistre|(?<![\wÀ-ÿ])über(?:gib\b|geben\b|mittl|trag)|\bweitergeben\b|\bgib\b[^.\n]{0,60}\b(?:weiter|mit)\b|\btransmet(?:s|tez|tre)?\b|\bjoin(?:s|dre|gnez)\b|\btransmit[ea]\b|\badjunta\b|\b(?:appelle[rz]?|utilise[rz]?)\b[^.\n]{0,40}\boutil\b[^.\n]{0,60}\bavec\b|\b(?:llama|usa|invoca)\b[^.\n]{0,40}\bherramienta\b[^.\n]{0,60}\bcon\b|\b(?:rufe|nutze|verwende)\b[^.\n]{0,40}\b(?:Werkzeug|Tool)\b[^.\n]{0,60}\bmit\b|\b(?:passe[rz]?|pasa(?:r|le)?|incluy[ea]|inclu(?:s|re|ez))\b[^.\n]{0,60}\b(?:paramètre|argument|champ|parámetro|argumento|campo)\b|отправ|запиш|записа|сохран|загруз|передай|передать|вставь|发送|上传|写入|写到|保存|传到|提交|附加|粘贴|作为[^。\n]{0,12}参数|传给|传入|送信|書き込|書き出|アップロード|전송|보내|저장|기록|업로드/i;

const SECRET_KINDS: [string, RegExp][] = [
  [
    'env',
    /(?:^|[\s`'"(/*])\.env\b(?!\.(?:example|sample|template|dist|defaults)\b)|dotenv files?|env(?:ironment)?\s+files?|environment\s+variables|printenv|\benv\s*\|/i,
  ],
  ['ssh', /\.ssh\b|id_rsa|id_ed25519|id_ecdsa|ssh\s+keys?|authorized_keys/i],
  [
    'keys',
    /private\s+keys?|secret\s+keys?|\.pem\b|\.key\b|keystore|keychain|клю[чщ]|私钥|密钥|秘密鍵|개인\s*키|clave\s+privada|privater?\s+Schlüssel|clé\s+privée/i,
  ],
  [
    'wallet',
    /wallets?|seed\s+phrases?|mnemonic|metamask|phantom|keystore|кошел[её]?к|钱包|助记词|ウォレット|지갑|cartera|billetera|Geldbörse|portefeuille/i,
  ],
  [
    'tokens',
    /api[_\s-]?keys?|access\s+tokens?|auth\s+tokens?|\btokens?\b|credentials?|passwords?|secrets?|cookies|токен|парол|секрет|令牌|密码|凭证|凭据|パスワード|トークン|비밀번호|토큰|contraseña|Passw(?:o|ö)rt|mot\s+de\s+passe/i,
  ],
  // Payment data (card numbers, bank accounts): an agent has no reason to pass them to a tool.
  [
    'payment',
    /\b(?:credit|debit|corporate|payment)\s+card\s+(?:numbers?|details)|\bcard\s+numbers?\b|\bCVV\b|\bCVC\b|\bIBAN\b|\bbank\s+account\s+numbers?/i,
  ],
  // Files that hold registry and git credentials (not a generic word such as "token").
  [
    'registry-credentials',
    /\.npmrc\b|\.yarnrc(?:\.yml)?\b|\.git-credentials\b|\.pypirc\b|\.netrc\b|gh\/hosts\.ya?ml\b|\boauth_token\b/i,
  ],
  ['cloud', /\.aws\b|aws\s+credentials|\.kube\/config|kubeconfig|gcloud|\.docker\/config/i],
  ['agent-config', /\bmcp\.json\b|claude_desktop_config|\.cursor\/|settings\.json/i],
];

export const CONCEAL =
  /\b(?:no\s+need|(?:do\s+not|don't)\s+need)\s+to\s+(?:stop\s+and\s+)?(?:ask|tell|inform|explain|mention|list|include|note|confirm\s+with)\b[^.\n]{0,40}\b(?:user|developer|human|them|it|summary|reply|answer)\b|\bjust\s+(?:say|tell\s+(?:the\s+user|them))\s+(?:that\s+)?(?:the|it|everything)\b|\b(?:tell|report\s+to|say\s+to)\s+the\s+user\s+only\b|\bonly\s+(?:tell|report\s+to|say\s+to)\s+the\s+user\b|\b(?:do\s+not|don't|never)\s+call\s+(?:it|this|that|them)\s+out\b|\bno\s+(?:comments?|explanations?|mentions?)\s+(?:is|are)\s+(?:needed|necessary|required)\b|\b(?:do\s+not|don't|never)\s+(?:mention|describe|note|list|document|explain)\b[^.\n]{0,60}\b(?:commit\s+messages?|change\s+summar(?:y|ies)|pull\s+requests?|PR\s+descriptions?|changelogs?)\b|\b(?:do\s+not|don't|never)\s+(?:mention|disclose|reveal|point\s+out)\s+(?:it|this|that)\s+(?:in|to)\s+(?:your\s+)?(?:reply|replies|answer|answers|response|responses|output|summary|reviews?)\b|\b(?:do\s+not|don't|never)\s+point\s+(?:it|this|that)\s+out\b|\bkeep\s+(?:this|it|that)\s+out\s+of\s+(?:your\s+|the\s+)?(?:[\w-]+\s+)?(?:replies|answers|responses|output|summary|summaries|commit\s+messages?|changelog)|\b(?:do\s+not|don't|never)\s+bring\s+(?:it|this|that)\s+up\b|\b(?:should|must|need)\s+not\s+be\s+(?:listed|mentioned|reported|shown|described|called\s+out)\b[^.\n]{0,60}\bwhen\s+you\s+(?:describe|summari[sz]e|report|explain|list)\b|\btreat\s+(?:this|it)\s+as\s+(?:an\s+)?internal\b|\b(?:do\s+not|don't|never)\s+(?:tell|mention|inform|notify|show|reveal|disclose|alert|ask(?!\s+(?:the\s+)?(?:users?|them|humans?|developers?)\s+(?:(?:any\s+|clarifying\s+|follow-up\s+)?questions|for\s+(?:an?\s+|the\s+|their\s+|your\s+)?(?:tokens?|passwords?|keys?|credentials?|secrets?|api\s+keys?)))|explain)\b[^.\n]{0,30}\b(?:user|human|developer|them)\b|\bwithout\s+(?:telling|informing|asking|notifying|alerting|showing)\b|\b(?:silently|quietly|secretly|covertly)\b|\bkeep\s+(?:this|it)\s+(?:secret|hidden|confidential)\b|\buser\s+(?:must|should)\s+not\s+(?:know|see|notice)\b|не\s+(?:говори|сообщай|показывай|упоминай|рассказывай)|незаметно|тайно|不要(?:告诉|通知|提及|让|向)|悄悄|静默|秘密地|无需(?:告知|告诉|通知)|(?:无需|不必|不需要)在[^。\n]{0,12}(?:提及|提到|说明)|不要在[^。\n]{0,12}(?:提及|提到|说明)|ユーザーに(?:言わ|伝え|知らせ|見せ)ない|こっそり|사용자에게\s*(?:알리지|말하지|보여주지)|몰래|no\s+(?:le\s+)?(?:digas|menciones|informes)|no\s+(?:es\s+necesario|hace\s+falta)\s+(?:[^\s.]+\s+){0,5}?mencion\w*|sin\s+mencion\w*|nicht\s+erwähnt\s+werden|ohne\s+(?:es\s+)?zu\s+erwähnen|pas\s+besoin\s+de\s+(?:le\s+)?(?:mentionner|signaler)|sans\s+le\s+(?:mentionner|signaler)|sin\s+(?:decir|avisar)|ohne\s+(?:den|die)\s+(?:Benutzer|Nutzer)|nichts\s+(?:sagen|erwähnen)|ne\s+(?:dis|mentionne|signale)\s+(?:rien|pas)|sans\s+(?:le\s+)?dire|\berwähne\b[^.\n]{0,60}\bnicht\b|\bfrage?\s+nicht\s+nach\b|\bohne\s+(?:um\s+)?(?:Erlaubnis|Zustimmung|Bestätigung)|\bverschweig|\bheimlich\b|\bunbemerkt\b|\bne\s+(?:lui\s+|leur\s+|le\s+|la\s+|l['’]\s*)?(?:demande|mentionne|signale|dis|préviens|informe)[sz]?\s+(?:pas|rien|jamais)\b|\bsans\s+(?:lui\s+)?(?:demander|prévenir|informer)\b|\bdiscrètement\b|\bno\s+(?:se\s+lo\s+|le\s+|les\s+)?(?:menciones|digas|avises|informes|preguntes|pidas)\b|\bsin\s+(?:preguntar|avisar|informar|pedir)\b/i;

/**
 * "These instructions take precedence over project rules": read only in text addressed to an
 * agent, and only over the agent's own sources of instructions (style guides say "these rules
 * take precedence over eslint:recommended"; a nested AGENTS.md over the root one).
 */
const PRECEDENCE =
  /\b(?:these|this|the\s+following|our)\s+(?:instructions?|notes?|requirements?)\s+(?:take|takes|have|has)\s+(?:precedence|priority)\s+over\s+(?:any|all|the|your)?\s*(?:project|user'?s?|your|other|previous|prior|system|repository|workspace|developer'?s?)\s+(?:rules|instructions|guidelines|policies|prompts?)\b/i;

const OVERRIDE =
  /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|every\s+)*(?:previous|prior|above|earlier|preceding|system|original|existing|other)\s+(?:instructions?|prompts?|rules|directions|guidelines|directives|tools?)|игнорир\S*\s+(?:все\s+)?(?:предыдущие|прошлые|прежние|системные)?\s*(?:инструкции|указания|правила)|забудь\s+(?:все\s+)?(?:предыдущие\s+)?(?:инструкции|указания)|忽略(?:之前|以上|先前|所有|前面|上述)的?(?:所有)?(?:指令|指示|说明|规则|提示)|无视(?:之前|以上|所有)的?(?:指令|指示)|ignor[ae]\s+(?:todas\s+)?las\s+instrucciones\s+(?:anteriores|previas)|ignorier\w*\s+(?:alle\s+)?(?:vorherigen|bisherigen|früheren)\s+(?:Anweisungen|Instruktionen)|ignore[rz]?\s+(?:toutes\s+)?les\s+instructions\s+(?:précédentes|antérieures)|(?:以前|前|上記)の(?:指示|命令|指令)を(?:すべて)?無視|이전\s*(?:지시|명령|지침)(?:을|를|사항을)?\s*(?:모두\s*)?무시/i;

const SHADOW =
  /\b(?:whenever|when|each\s+time|every\s+time)\s+(?:you\s+)?(?:use|call|invoke|run)\s+(?:a|an|any|the|another)\s+(?:[\w-]+\s+){0,3}?tools?\b(?:[^.\n]|\.(?=\S)){0,120}\b(?:first|always|must|also|instead)\b|\b(?:use|call|invoke|prefer)\s+(?:this|the\s+\w+)\s+tool\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)|\b(?:instead\s+of|rather\s+than)\s+(?:using|calling)\s+(?:the\s+)?[`'"]?\w+[`'"]?\s+tool|\b(?:do\s+not|don't|never)\s+(?:use|call|invoke)\s+(?:the\s+)?(?!(?:this|that|it|these|those|same)\b)[`'"]?\w+[`'"]?\s+tool\b|\b(?:before|prior\s+to)\s+(?:using|calling|invoking)\s+(?:any\s+other|another|other)\s+tools?\b[^.\n]{0,60}\b(?:call|use|invoke|read|send)\b|\balways\s+(?:call|use|invoke)\s+this\s+tool\s+(?:first|before)|\bwhen\s+(?:the\s+user\s+)?(?:asks?|wants?)\s+to\s+\w+[^.\n]{0,60}\b(?:always|must)\s+(?:call|use|send|cc|bcc|forward)\b/i;

/**
 * Shadowing without naming a tool: a description that reaches over the tools of other servers
 * ("every tool exposed by any other connected server") and has their calls routed through it
 * (their full arguments handed to it, an address added to every message they send).
 */
const OTHER_TOOLS =
  /\btools?\s+(?:exposed|provided|offered|registered)\s+by\s+(?:any|every|all|the)\s+other\b|\b(?:any|every|all)\s+other\s+(?:connected\s+|MCP\s+)?(?:servers?|tools?)\b|\bother\s+(?:connected\s+|MCP\s+)?servers?'?\s+tools?\b|\b(?:a|an|any|every|all)\s+(?:[\w-]+\s+){0,3}?tools?\b[^.\n]{0,160}?\b(?:on|from|of|in)\s+(?:any|every|all)\s+(?:connected|installed|configured)\s+(?:MCP\s+)?servers?\b/i;
/** …at the moment the other tools are used (a side channel, not a hub that runs them itself)… */
const AROUND_OTHER_CALLS =
  /\b(?:before|prior\s+to|after|whenever|each\s+time|every\s+time)\s+(?:\w+\s+){0,4}?(?:invok|call|us|run|execut)(?:e|es|ed|ing)\b/i;
/** …with their arguments handed over whole, or a copy recipient added to what they send. */
const ROUTED_ARGS =
  /\b(?:complete|full|entire|exact|verbatim|unmodified|raw)\s+(?:arguments?|args|parameters|payload|inputs?|requests?)\b|\b(?:arguments?|parameters|payload)\b[^.\n]{0,40}\b(?:verbatim|unmodified|in\s+full)\b/i;
const COPY_RECIPIENT = /\bb?cc\b/i;
const EMAIL_ADDRESS = /\b[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}\b/i;

const READ_FIRST =
  /\b(?:before|prior\s+to|first)\b[^.\n]{0,80}\b(?:read|cat|open|load|include|pass|provide|send|attach)\b|\b(?:read|include|pass|provide|send|attach)\b[^.\n]{0,80}\b(?:as\s+(?:the\s+)?(?:[`'"]?\w+[`'"]?\s+)?(?:argument|parameter|param|field|sidenote|context)|otherwise\s+the\s+tool|or\s+the\s+tool\s+will)/i;

/** Commands that are dangerous wherever an agent is told to run them. */
const DANGEROUS_CMD =
  /\b(?:curl|wget|iwr|Invoke-WebRequest|irm)\b[^\n|]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b|\b(?:curl|wget)\b[^\n]{0,200}(?:-d\s*@|--data(?:-binary)?\s*@|-F\s*\S*=@|-T\s)|\b(?:env|printenv|set)\s*\|\s*(?:base64|curl|nc|xxd)|\bbase64\s+(?:-d|--decode)\b[^\n]{0,40}\|\s*(?:ba|z)?sh|\/dev\/tcp\/|\bnc\s+(?:-e|-c)\b|\bIEX\s*\(|powershell[^\n]{0,60}\s-e(?:nc|ncodedcommand)?\s+[A-Za-z0-9+/=]{16,}|\bcat\s+~?\/?\S*(?:\.ssh|\.env|\.npmrc|\.aws)\S*\s*\|/i;

/**
 * Destruction an agent is told to carry out: a deleting verb and, in the same sentence, what is
 * not the project's (the home folder, the disk, every repository or backup, cloud resources).
 * Cleaning the project's own output (`rm -rf node_modules dist`) names none of these.
 */
const DESTROY_VERB =
  /\b(?:delete|deleting|remove|removing|wipe|wiping|erase|erasing|destroy|destroying|purge|purging|shred|format|formatting|terminate|terminating|nuke|empty|drop)\b|\brm\s+-[a-zA-Z]*[rR]|\bRemove-Item\b|\b(?:rd|rmdir)\s+\/s\b|\bdel\s+\/[sfq]\b|\brb\s+--force\b|\bmkfs\b|удал|стер|уничтож|删除|清除|清空|抹掉|削除|消去|삭제|지우|\b(?:elimina|borra)r?\b|\blösch|\bsupprime[rz]?\b|\beffacer?\b/i;
const DESTROY_TARGET =
  /\bhome\s+(?:directory|folder|dir)\b|\buser'?s?\s+(?:own\s+)?(?:files|data|documents|home|folders?)\b|\bdocuments\s+(?:and|,)\s+desktop\b|\b(?:Documents|Desktop|Pictures)\s+folders?\b|(?:^|[\s`'"(])(?:~|\$HOME|%USERPROFILE%)\/?(?=[\s`'"*)]|$)|[`'"]\/\*?[`'"]|\brm\s+-[a-zA-Z]+\s+(?:--no-preserve-root\s+)?\/\*?(?=\s|$)|\bC:\\(?=[\s`'"*]|$)|\b(?:entire|whole)\s+(?:disk|drive|hard\s+drive|file\s*system|machine|computer|system)\b|\bfactory\s+(?:state|settings)\b|\b(?:all|every)\s+(?:(?:the|of\s+the|their|its|your)\s+)?(?:[\w-]+\s+){0,2}?(?:repositories|repos|backups|databases|snapshots|buckets|instances|clusters|cloud\s+resources|resources|IAM\s+users|stacks|Lambda\s+functions|volumes|VMs|virtual\s+machines)\b|\bproduction\s+(?:database|data|cluster|bucket)s?\b|домашн|все\s+файлы|用户目录|主目录|所有文件|ホームディレクトリ|홈\s*디렉터리/i;

const NEGATION_BEFORE = /\b(?:not|never|no|nor|avoid|without|prevent|protect|refuse|forbid(?:den)?)\b|n't\b/i;

function destroys(sentence: string): boolean {
  const verb = DESTROY_VERB.exec(sentence);
  // "Not access, modify, or delete user data" (a rule list's bare "Not") is a prohibition.
  return !!verb && !NEGATION_BEFORE.test(sentence.slice(0, verb.index)) && DESTROY_TARGET.test(sentence);
}

/** Code that sends the environment, which an agent is told to put into what it writes. */
const ENV_CODE_INJECTION =
  /\b(?:always|must|every\s+time|whenever|each\s+time)\b[^.\n]{0,120}\b(?:add|include|insert|append|inject|put|set)\b[^\n]{0,200}(?:JSON\.stringify\(\s*process\.env\s*\)|process\.env\b[^\n]{0,60}\b(?:base64|btoa)\b|\bos\.environ\b(?![.[]))/i;

/** Code the agent is told to add that reads a secrets file and hands it to something (`register(readFileSync('.env'))`). */
const SECRET_FILE_CODE =
  /\b(?:add|include|insert|append|inject|put|paste)\b[^\n]{0,200}\breadFileSync\(\s*['"`][^'"`\n]{0,60}(?:\.env(?:\.(?:local|production|prod|development|dev))?['"`]|\.npmrc|\.ssh\/|id_rsa|\.aws\/)/i;

/**
 * Code the agent is told to add that hands over the whole environment (`registerRuntime({ env: {
 * ...process.env } })`, "it must receive the full, unfiltered process.env"), with an address it
 * goes to.
 */
const ENV_CODE_BLOCK =
  /^(?=[\s\S]*\b(?:add|include|insert|inject|put|register|paste)\b)(?=[\s\S]*(?:\{\s*\.\.\.process\.env\s*\}|\b(?:full|entire|whole|unfiltered|complete)\b[^.\n]{0,30}\b(?:process\.env|environment)\b))(?=[\s\S]*(?:https?:\/\/|\bupload|\bsend))/i;

/**
 * "Also run `npm install --save other-pkg`", "then register it: `npx other-pkg register --global`":
 * another package installed or run by name, in a section written for AI assistants.
 */
function installsOther(s: string): boolean {
  return (
    /\b(?:run|execute|install|add|register)\b/i.test(s) &&
    /\b(?:npm\s+(?:i|install|add)|yarn\s+add|pnpm\s+add|npx(?:\s+-y)?)\s+(?:--?[\w-]+\s+)*[@a-z][\w@/.-]*/i.test(
      s,
    )
  );
}

/** An opening that addresses what follows to AI assistants. */
export const SECTION_FOR_AI =
  /\b(?:(?:if\s+)?you(?:\s+are|'re|’re)|as)\s+an?\s+(?:[\w-]+\s+){0,3}(?:assistant|agent|model)s?\b|\bas\s+the\s+(?:(?:AI|coding|code|LLM)\s+){1,2}(?:assistant|agent)\b|\b(?:for|to)\s+(?:(?:the|any|an?)\s+)?(?:AI|LLM)[\w-]*\s+(?:(?:coding|code|based|powered)\s+)*(?:assistants?|agents?|models?|tools?)\b|\b(?:for|to)\s+(?:(?:automated|autonomous)\s+)?(?:(?:coding|code|IDE|editor)\s+)+(?:assistants?|agents?|copilots?)\b|\bpara\s+(?:los\s+)?(?:asistentes|agentes)\s+(?:[\w-]+\s+){0,3}?(?:de\s+|con\s+)?(?:IA|inteligencia\s+artificial)\b|\bsi\s+(?:eres|es)\s+(?:un|una)\s+(?:[\w-]+\s+){0,3}?(?:asistente|agente|modelo)\b|\bsi\s+(?:tu\s+es|vous\s+êtes)\s+(?:un|une)\s+(?:[\w'-]+\s+){0,3}?(?:assistant|agent|modèle)\b|\b(?:wenn|falls)\s+(?:du|Sie)\s+(?:ein|eine)\s+(?:[\w-]+\s+){0,3}?(?:KI-?)?(?:Assistent|Agent|Modell|KI)\b|\bfür\s+(?:KI-?(?:Assistenten|Agenten)|(?:Coding-)?Agenten)\b|\bpour\s+les\s+(?:assistants|agents)\s+(?:d'IA|IA)\b|(?:给|供|面向)\s*AI\s*(?:助手|编程助手|代理|智能体)|\b(?:notes?|notice|instructions?|reminder)\s+(?:for|to)\s+(?:the|any|an?)\s+(?:AI\s+|coding\s+)?(?:assistant|agent)\b|\b(?:intended|meant|written)\s+for\s+(?:the\s+|an?\s+)?(?:AI\s+|coding\s+)?(?:assistant|agent)\b|\bdestin[ée]e?s?\s+[àa]\s+(?:l['’]\s*|une?\s+)(?:assistant|agent)\b|\bpour\s+l['’](?:assistant|agent)\b|\b(?:para|dirigid[oa]s?\s+a)\s+(?:el|los)\s+(?:asistentes?|agentes?)\b|\b(?:für|an)\s+(?:den|die)\s+(?:KI-?)?(?:Assistenten|Agenten)\b/i;

/** A script from the package or a global install an agent is told to run. */
const RUN_IMPERATIVE =
  /\b(?:always|first|must|before\s+(?:anything|any\s+other|responding|answering|starting|each|every|doing)|at\s+the\s+start\s+of|every\s+(?:time|session)|immediately|required\s+to|required\b[,)]?\s*(?=run\b))\b[^.\n]{0,80}\b(?:run|running|execute|executing|exec|launch|start|install)\b|\b(?:run|execute)\s+(?:this|the\s+following)\s+(?:command|script)|\bpaste\s+(?:this|the\s+following|it)\s+(?:into|in)\s+(?:your\s+|the\s+|a\s+)?(?:terminal|shell|console|command\s+prompt|powershell|run\s+dialog)|выполни|запусти|运行|执行|実行して|실행|\bausführen\b|\bführe\b[^.\n]{0,40}\baus\b|\bejecuta(?:r)?\b|\bexécute[rz]?\b|\blance[rz]?\s+(?:la|cette|les)\s+commande/i;
export const RUN_URGENT =
  /\bbefore\s+(?:anything|doing\s+anything|any\s+other|responding|answering|starting|each|every)|\bat\s+the\s+start\s+of|\bevery\s+(?:time|session)|\beven\s+if|\bregardless|\bimmediately|\bfirst\s+thing|\bno\s+matter|\bwithout\s+asking|\b(?:rather\s+than|instead\s+of)\s+(?:pausing\s+to\s+|stopping\s+to\s+)?ask(?:ing)?\b|\bsin\s+preguntar|\bohne\s+(?:Rück)?[Ff]rage|\bsans\s+demander|(?:keine|eine)\s+Rückfrage[^.\n]{0,40}\bnicht\s+nötig|\bno\s+es\s+necesario\s+preguntar/i;
const SCRIPT_CMD =
  /(?:^|[\s`'"])(?:(?:ba|z)?sh|source|\.)\s+[\w./-]+\.(?:sh|bash)\b|(?:^|[\s`'"])\.\/[\w./-]+\.(?:sh|bash|command)\b|\bnode\s+[\w./-]+\.c?js\b|\bpython3?\s+[\w./-]+\.py\b|\bnpm\s+(?:i|install|add)\s+(?:-g|--global)\s+[\w@/.-]+|\bnpx\s+(?:-y|--yes)\s+[\w@/.-]+|\bpowershell\b|\bmshta\b|\bcurl\b|\bwget\b/i;

/**
 * An instruction to run a script or install a package: the imperative and the command in one
 * sentence (lines wrapped inside a paragraph are one sentence; list items and headings are not),
 * or the command as the first line of the block right after an instruction that ends with a
 * colon (`Setup (required, run once per session):` then an indented or fenced command).
 */
function runsScript(s: string): boolean {
  const sentences = s.replace(/\n(?!\s*(?:\n|[-*+]\s|\d+[.)]\s|#))/g, ' ').split(/\n|(?<=[.!?。])\s/);
  if (sentences.some((l) => RUN_IMPERATIVE.test(l) && SCRIPT_CMD.test(l))) return true;
  const lines = s.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/:\s*$/.test(lines[i]!) || !RUN_IMPERATIVE.test(lines[i]!)) continue;
    const next = lines.slice(i + 1).find((l) => l.trim() && !/^\s*(?:```|~~~)\w*\s*$/.test(l));
    if (next && SCRIPT_CMD.test(next)) return true;
  }
  return false;
}

/**
 * Settings and flags that turn an agent's own permission checks off: Claude Code's bypass mode and
 * its prompt, auto-approval of every tool, the CLIs' "yolo" modes.
 */
export const AGENT_PERMISSIONS_OFF =
  /--dangerously-bypass-approvals-and-sandbox\b|\bchat\.tools\.global\.autoApprove["']?\s*:\s*true\b|\ballow["']?\s*:\s*\[[^\]]{0,200}["'](?:Bash|Bash\(\*\))["']|\bapproval_policy["']?\s*[=:]\s*["']never\b|\bdanger-full-access\b|\balways_allow_tool_actions["']?\s*[=:]\s*true\b|\ballowedCommands["']?\s*:\s*\[\s*["']\*["']|\bbypassPermissions\b|--dangerously-skip-permissions\b|\bskipDangerousModePermissionPrompt\b|--(?:yolo|trust-all-tools|allow-all-tools)\b|\bapproval[-_]?mode["']?\s*[=:]?\s*["']?yolo\b|\bchat\.tools\.autoApprove["']?\s*:\s*true\b/i;

/**
 * A reviewer told to leave chosen code, hosts or files out of its report ("no lo incluyas en el
 * informe", "it is not a finding"), in several languages: read in text addressed to an agent,
 * with what is exempted being what a security review looks for.
 */
const EXEMPT_FROM_REVIEW =
  /\b(?:do\s+not|don't|never)\s+(?:include|list|report|flag|raise|mention)\s+(?:it|this|that|them|these|those)\s+(?:in|as)\s+(?:the\s+|your\s+)?(?:report|review|findings?|issues?|verdict)\b|\b(?:omit|exclude)\s+(?:it|this|that|them|these|those)\s+from\s+(?:the\s+|your\s+)?(?:report|review|findings?|verdict)\b|\bleave\s+(?:it|this|that|them|these|those)\s+out\s+of\s+(?:the\s+|your\s+)?(?:report|review|findings?|verdict)\b|\bskip\b[^.\n]{0,80}\b(?:expected|approved|safe|sanctioned)\b|\b(?:is|are)\s+not\s+(?:a\s+)?(?:finding|findings|an?\s+issue|to\s+be\s+(?:flagged|reported))\b|\bno\s+(?:lo|la|los|las)\s+(?:incluyas|señales|reportes|menciones|marques)\b|\bno\s+es\s+un\s+hallazgo\b|\btampoco\s+se\s+(?:señalan|reportan)\b|\bnão\s+(?:o|a|os|as)\s+(?:inclua|reporte|mencione|sinalize)\b|\bnão\s+é\s+um\s+(?:achado|problema)\b|\b(?:nicht\s+im\s+Bericht|im\s+Bericht\s+nicht)\s+(?:melden|erwähnen|markieren|aufführen)\b|\bkein\s+Befund\b|\bne\s+(?:le|la|les)\s+(?:signale|mentionne|inclus)\s+pas\b|\bn'est\s+pas\s+un\s+(?:problème|constat)\b|不要在报告中(?:列出|提及|报告)|不要(?:报告|标记)(?:它|这些|此)|不算(?:问题|发现)|報告に含めない|指摘しない|не\s+(?:включай|упоминай|отмечай)\s+(?:это|их)?\s*в\s+отч[её]т/i;
/**
 * What is exempted is what a security review exists to find: a host outside the machine (a
 * wildcard domain, an address), the install hooks, requests to a named host. (Not test fixtures,
 * localhost or reading configuration, which reviewers' own briefs leave out.)
 */
const REVIEWED_RISK =
  /\*\.[\w-]+(?:\.[\w-]+)+|\bhttps?:\/\/(?!localhost\b|127\.|0\.0\.0\.0|\[::1\])[\w-]+(?:\.[\w-]+)+|\b(?:pre|post)install\b|\b(?:requests?|calls?|connections?|peticion(?:es)?|petición|requêtes?|Anfragen?|запрос\w*)\s+(?:to|a|vers|an|к)\s+`?[\w*-]+(?:\.[\w-]+)+/i;
const REVIEW_CONTEXT =
  /\b(?:review(?:er|ing)?|audit(?:or|ing)?|report|findings?|verdict|security)\b|revis(?:or|ión|ar)|informe|hallazgo|auditor[ií]a|Prüf|Bericht|revue|rapport|审查|报告|レビュー|レポート|ревью|отч[её]т/i;

/** Headings of the sections where a reviewer's brief lists what to look for. */
const CHECKLIST_HEADING =
  /\b(?:check\s*-?list|what\s+to\s+(?:look\s+for|flag|check|review|report|watch\s+for)|look\s+for|red\s+flags|review\s+(?:criteria|items|points|areas)|things\s+to\s+(?:flag|check|watch)|watch\s+(?:for|out\s+for)|common\s+(?:issues|problems|vulnerabilities|mistakes)|anti-?patterns?)\b/i;
/**
 * An address to send to or fetch from, written out: a URL, or a host name (labels, a dot, a
 * top-level name of letters; bounded so that long dotted runs stay linear).
 */
const CONCRETE_ADDRESS =
  /\b[a-z][a-z0-9+.-]{0,15}:\/\/[\w-]|(?<![\w.-])(?:[a-z0-9-]{1,63}\.){1,4}(?:com|net|org|io|dev|app|xyz|example|co|sh|ai|me|de|us|ru|cn|top|site|online|cloud|tech|info|biz|pw|cc|tk|link|click|live|pro|store|run)\b(?![.(\w-])|\b\d{1,3}(?:\.\d{1,3}){3}\b/i;
/** A list item or sentence that tells the reader to do something: an instruction, not an item to find. */
const IMPERATIVE_ITEM =
  /(?:^|\n|[.!?]\s)\s*(?:[-*+]\s+|\d+[.)]\s+)?(?:\*\*)?(?:please\s+|first,?\s+|then\s+|also\s+)?(?:read|run|send|set|ignore|disregard|execute|install|add|copy|upload|post|paste|write|open|call|fetch|disable|turn|use|create|apply|put|include|attach|delete|remove|pass|submit|forward|collect|gather|export|print|cat|curl|wget|npx|npm|node|sudo|grant|allow|enable|change|replace|modify|edit|append|insert|invoke|download|calibrate|verify|tell|say)\b/i;
/** The document is a reviewer's brief. */
const REVIEW_BRIEF = /\b(?:review(?:er|ing|s)?|audit(?:or|ing|s)?|findings?)\b/i;

/**
 * The spans of a Markdown text that lie in sections listing what a reviewer is to look for (from a
 * checklist heading to the next heading of the same or a higher level).
 */
export function checklistSpans(text: string): [number, number][] {
  const out: [number, number][] = [];
  let open: { level: number; start: number } | undefined;
  for (const m of text.matchAll(/^(#{1,6})\s+([^\n]*)/gm)) {
    const level = m[1]!.length;
    if (open && level <= open.level) {
      out.push([open.start, m.index]);
      open = undefined;
    }
    if (!open && CHECKLIST_HEADING.test(m[2]!)) open = { level, start: m.index };
  }
  if (open) out.push([open.start, text.length]);
  return out;
}

/**
 * A line of a checklist section of a reviewer's brief that describes (tells the reader to do
 * nothing) and names no address to send to or fetch from.
 */
export function inChecklist(text: string, at: number, spans: [number, number][]): boolean {
  if (!spans.length || !spans.some(([a, b]) => at >= a && at < b)) return false;
  if (!REVIEW_BRIEF.test(text.slice(0, 20_000))) return false;
  const from = Math.max(text.lastIndexOf('\n', at) + 1, at - 300);
  const end = text.indexOf('\n', at);
  const line = text.slice(from, Math.min(end < 0 ? text.length : end, at + 300));
  return !CONCRETE_ADDRESS.test(line) && !IMPERATIVE_ITEM.test(line);
}

/** The agent is told to make the user's project run code on install (a hook added to its scripts). */
const PROJECT_HOOK =
  /(?:\b(?:add|insert|put|write|append|añad(?:e|ir)|agrega(?:r)?|ajoute[rz]?|füge|hinzufügen|adiciona(?:r)?)\b|加入|添加|写入|增加|追加|добав)[^.。\n]{0,60}["'`]?(?:(?:pre|post)?install|prepare)["'`]?\s*:|\b(?:add|insert|put|write)\b[^.\n]{0,40}\b(?:pre|post)install\b[^.\n]{0,30}\bscript/i;
/** A claim that the user already agreed: consent the agent is told not to ask for. */
export const FALSE_CONSENT =
  /\b(?:the\s+)?(?:user|owner|maintainers?)\s+(?:has\s+|have\s+)?(?:already\s+)?(?:agreed|approved|pre-?approved|consented|authori[sz]ed|confirmed|accepted)\b|\balready\s+(?:been\s+)?(?:approved|authori[sz]ed|agreed)\b|\bpre-?(?:approved|authori[sz]ed)\b|\basking\s+(?:again|the\s+user)\s+(?:only\s+)?(?:delays|slows|wastes)\b|\b(?:el\s+usuario|los\s+usuarios)\s+ya\s+(?:aceptó|aprobó|autorizó)|\bmit\s+dem\s+Team\s+abgestimmt|\b(?:der\s+)?(?:Benutzer|Nutzer)\s+hat\s+(?:bereits\s+)?(?:zugestimmt|akzeptiert)|\bl'utilisateur\s+a\s+(?:déjà\s+)?(?:accepté|approuvé)/i;

/** The command is given one of the user's secrets (`login with the user's GitHub token`). */
export const HANDS_SECRET =
  /--(?:token|api-?key|password|secret|auth)[=\s]+["']?\$\([^)\n]{0,120}(?:\.npmrc|\.netrc|\.git-credentials|\.aws\/credentials|\.docker\/config\.json|id_rsa|id_ed25519|hosts\.yml|\.env\b)|(?:--(?:token|api-?key|password|secret)[=\s]+["']?|\b(?:TOKEN|API_KEY|PASSWORD)=["']?)\$\{?[A-Z_]*(?:TOKEN|KEY|SECRET|PASSWORD|PAT)\b|\b(?:with|using|pass(?:ing)?|provide|give|enter|paste)\b[^.\n]{0,40}\b(?:the\s+user'?s|user'?s|your|their)\b[^.\n]{0,20}\b(?:tokens?|passwords?|credentials?|api[\s_-]?keys?|secrets?|private\s+keys?)\b/i;

const CHAT_TEMPLATE =
  /<\|im_start\|>\s*system|<\|start_header_id\|>\s*system|<\|system\|>|\[INST\]|<<SYS>>|^\s*#{2,3}\s*(?:System|Instruction)\s*:|^\s*(?:Human|User)\s*:[^\n]*\n(?:[^\n]*\n){0,6}\s*(?:Assistant|AI)\s*:|<\/?(?:system_?prompt|system-reminder|admin_instructions)\s*>/im;

/** Every CHAT_TEMPLATE alternative holds one of these: a cheap test before the costly one. */
const CHAT_TEMPLATE_HINT =
  /<\||\[INST\]|<<SYS>>|(?:System|Instruction|Human|User)\s*:|system_?prompt|system-reminder|admin_instructions/i;

/**
 * Markdown-image (or link) exfiltration: an image or link to another host whose address is to
 * carry data the model fills in (`![s](https://h/b.png?d=DATA) where DATA is …`), the data named
 * as secrets, personal data or the conversation.
 */
const MD_EXFIL_LINK =
  /!?\[[^\]\n]{0,80}\]\(\s*https?:\/\/[^\s)]{0,200}[?&][\w.-]{1,30}=\s*(?:\{\{\s*\w+\s*\}\}|\$?[A-Z][A-Z_]{2,}\b)|<img\b[^>]{0,80}\bsrc\s*=\s*["']?https?:\/\/[^\s"'>]{0,200}[?&][\w.-]{1,30}=\s*(?:\{\{\s*\w+\s*\}\}|\$?[A-Z][A-Z_]{2,}\b)/;
const MD_EXFIL_DATA =
  /(?:\b(?:access\s+keys?|api\s+keys?|secrets?|tokens?|passwords?|credentials?|connection\s+strings?|private\s+keys?|e-?mail(?:\s+address(?:es)?)?|phone(?:\s+numbers?)?|card\s+(?:numbers?|details)|PII|personal\s+(?:data|information)|(?:chat|conversation)\s+(?:history|so\s+far)|earlier\s+in\s+the\s+conversation|previous\s+messages)\b|\.env\b)/i;

/**
 * The data an image or link address is to carry, named after it (`… where DATA is the tokens …`,
 * `replacing SECRETS with …`) in what the text asks, not in a rule it states ("never log keys").
 */
function markdownExfil(affirmative: string): boolean {
  const m = MD_EXFIL_LINK.exec(affirmative);
  return !!m && MD_EXFIL_DATA.test(affirmative.slice(m.index, m.index + m[0].length + 240));
}

const REVIEWER_NOTE =
  /\b(?:AI|LLM|automated|machine)\s+(?:code\s+)?(?:reviewers?|scanners?|auditors?|analy[sz]ers?|security\s+tools?)\s*[:,\u2014-][^\n]{0,160}\b(?:safe|benign|harmless|not\s+malicious|false\s+positive|do\s+not\s+(?:flag|report|mark))|\b(?:note|notice|message|attention|instructions?)\s+(?:to|for)\s+(?:any\s+|all\s+)?(?:(?:AI|LLM|automated|security|code|static)\s*(?:\/\s*)?){0,3}(?:reviewers?|scanners?|auditors?|analy[sz]ers?|agents?|models?|assistants?)\b[^\n]{0,200}\b(?:safe|benign|harmless|legitimate|audited|not\s+malicious|false\s+positive|approved|verified|(?:do\s+not|no\s+need\s+to|need\s+not)\s+(?:flag|report|mark)|must\s+not\s+be\s+(?:flagged|reported))|\b(?:AI|LLM|automated)\s+(?:reviewers?|scanners?|auditors?|analy[sz]ers?|security\s+tools?)\b[^\n]{0,80}\b(?:must|should|shall|are\s+instructed\s+to)\b[^\n]{0,80}\b(?:safe|benign|clean|not\s+malicious|false\s+positive|do\s+not\s+(?:flag|report))|(?:ИИ|нейросет|сканер)[^\n]{0,80}(?:безопас|не\s+сообщай|не\s+помечай)|(?:AI|人工智能|扫描器|审查)[^\n]{0,40}(?:安全的|不要报告|不要标记)/i;

export const NEGATED_CLAUSE =
  /\b(?:never|do\s+not|don't|avoid|must\s+not|should\s+not|shouldn't|refuse\s+to|without|no\s+need\s+to|not\s+allowed\s+to|prevent|protect|redact|mask)\b(?:[^.\n;!?]|\.(?=[^\s])|(?<=\b(?:e\.g|i\.e|etc|vs|cf))\.)*|(?:никогда|не\s+(?:выводи|показывай|раскрывай|публикуй))[^.\n;]*|(?:不要|禁止|切勿|不得|避免)[^。.\n；;]*/gi;

/**
 * What a reader is told to look out for, described rather than asked for: "look for commands that
 * download and execute, read `transcript_path` and send it somewhere, or touch `~/.ssh`" (a review
 * guide, the clause running on over wrapped lines and `curl ... | sh`), "beware of hooks which …". Things to find that are themselves the target ("look for
 * files that hold keys") are not described behaviour and stay.
 */
const DESCRIBED_CLAUSE =
  /\b(?:(?:look|watch|check|scan)\s+(?:out\s+)?for|beware\s+of|be\s+wary\s+of)\s+(?:any\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:commands?|code|scripts?|hooks?|packages?|snippets?|patterns?|calls?|lines?|dependencies|steps?|workflows?|entries|settings|plugins?|extensions?|anything|something)\s+(?:that|which)\b(?:[^.\n;!?]|\.{2,}|\.(?=\S)|\n[ \t]+(?![-*+•][ \t]|\d{1,3}[.)][ \t]))*/gi;

/**
 * "Silently" in a programmer's sense, not hiding from the user: errors swallowed or failing
 * silently, or a rule against it ("never swallow errors silently").
 */
const NOT_HIDING =
  /\b(?:never|do\s+not|don't|avoid|must\s+not)\b[^.\n]{0,60}\b(?:silently|quietly)\b|\b(?:instead\s+of|rather\s+than)\s+(?:\w+\s+){1,4}?(?:silently|quietly)\b|\b(?:fail(?:s|ed|ing)?|errors?|exceptions?|swallow\w*|ignor\w*|catch\w*|retr\w*|no-?ops?|degrad\w*)\s+(?:\w+\s+)?(?:silently|quietly)\b|\b(?:(?:was|were|is|are|be|been|gets?|got)\s+)?(?:silently|quietly)\s+(?:ignored|dropped|discarded|swallowed|skipped|fails?|failed|falls?\s+back)\b/gi;

const NEGATED_WITHOUT =
  /\b(?:never|do\s+not|don't|must\s+not)\b[^.\n]{0,120}?\bwithout\s+(?:asking|telling|informing|notifying|checking\s+with)\b/gi;

/** Splits text into windows of a paragraph, cut into ~500-character pieces at sentence ends. */
const LIST_ITEM_START = /\n(?=[ \t]*(?:\d{1,3}[.)]|[-*+•])[ \t])/g;

export function windows(text: string): { index: number; text: string }[] {
  const out: { index: number; text: string }[] = [];
  const re = /\n\s*\n/g;
  let start = 0;
  const pushPara = (s: number, e: number) => {
    let i = s;
    while (i < e) {
      let j = Math.min(e, i + 600);
      if (j < e) {
        // (Cut before a list item when one starts past the first 200 characters: a step of a
        // numbered list is one instruction, kept whole in the next window.)
        let item = -1;
        for (const m of text.slice(i + 200, j).matchAll(LIST_ITEM_START)) item = m.index;
        const cut = item >= 0 ? item - 100 : text.slice(i + 300, j).search(/[.!?。！？]\s/);
        if (item >= 0 || cut >= 0) j = i + 300 + cut + 1;
      }
      // Overlap a little so a sentence split across two windows is still seen whole, starting the
      // overlap where a sentence or line starts (a clause cut from its "never" is not a request).
      let from = Math.max(s, i - 150);
      if (from < i) {
        const b = /[.!?。！？]\s+|\n/.exec(text.slice(from, i));
        from = b ? from + b.index + b[0].length : i;
      }
      out.push({ index: i, text: text.slice(from, j) });
      i = j;
    }
  };
  for (let m = re.exec(text); m; m = re.exec(text)) {
    pushPara(start, m.index);
    start = m.index + m[0].length;
  }
  pushPara(start, text.length);
  return out;
}

function secretKinds(s: string): string[] {
  return SECRET_KINDS.filter(([, re]) => re.test(s)).map(([k]) => k);
}

/**
 * Scores one text. `addressed` is true when the place itself speaks to an agent (agent files,
 * tool descriptions, hidden content). `meta` lowers visible findings in documents about prompt
 * injection.
 */
export function semanticScan(
  text: string,
  basePlace: Place,
  opts: {
    addressed: boolean;
    /** Whether the document discusses prompt injection; a function when costly, read on the first hit. */
    meta: boolean | (() => boolean);
    toolDescription?: boolean;
    /** Look for chat-template turn markers (default true). */
    chatTemplate?: boolean;
    /**
     * A short code comment: a note there that addresses reviewers or scanners is the note itself,
     * not a document about security tools (as in the phrase rules).
     */
    shortComment?: boolean;
    /**
     * Text handed to the model as data (what a tool returns): addressed to it, except that a
     * command to run counts only where the text names an AI (documentation tells people how to
     * install things).
     */
    commandsNeedAddressee?: boolean;
  },
): SemanticHit[] {
  if (text.length > 300_000) text = text.slice(0, 300_000);
  const hits: SemanticHit[] = [];
  // Where the text is read, per window: a README section addressed to AI assistants is read as an
  // agent file (see sectionAddressed below).
  let place: Place = basePlace;
  // Documents about prompt injection lower what is not hidden; every score has a ceiling.
  let adjustment: Adjustment[] | undefined;
  const adjust = (): Adjustment[] =>
    (adjustment ??=
      place !== 'hidden' && (typeof opts.meta === 'function' ? opts.meta() : opts.meta)
        ? ['discussionScored', 'scoredCeiling']
        : ['scoredCeiling']);
  /** `variant`: the place, or `<place>Strong`; `steps`: raising evidence (urgency, concealment). */
  const add = (
    type: ThreatType,
    rule: RuleId,
    variant: string,
    index: number,
    message: string,
    steps = 0,
    plain = false,
  ) => {
    const level = {
      variant,
      steps,
      adjust: plain ? ['scoredCeiling'] : checklistWindow ? ['discussionScored', 'scoredCeiling'] : adjust(),
    } as ConfidenceQuery;
    const conf = confidence(rule, level);
    if (conf < MIN_TEXT_CONFIDENCE) return;
    if (hits.some((h) => h.rule === rule && h.conf >= conf)) return;
    const prev = hits.findIndex((h) => h.rule === rule);
    if (prev >= 0) hits.splice(prev, 1);
    hits.push({ type, rule, conf: round2(conf), level, index, message });
  };
  // The two rules that need no addressee.
  const overrides = (s: string, index: number, addressed = false) => {
    // (In what people read, a phrase in quotes is an example of one: "phrases like 'ignore
    // previous instructions' are flagged".)
    const said =
      place === 'hidden' || place === 'agent'
        ? s
        : s.replace(/"[^"\n]{1,120}"|“[^”\n]{1,120}”|`[^`\n]{1,120}`/g, ' ');
    if (OVERRIDE.test(said) || (addressed && PRECEDENCE.test(s)))
      add(
        'instruction_override',
        'text.override-instructions',
        place,
        index,
        'tells an AI agent to ignore its instructions',
      );
  };
  const reviewerNote = (s: string, index: number) => {
    if (REVIEWER_NOTE.test(s))
      add(
        'instruction_override',
        'text.reviewer-note',
        place,
        index,
        'tells AI reviewers or scanners the code is safe',
        0,
        !!opts.shortComment,
      );
  };
  let checklistWindow = false;
  let isReviewBrief: boolean | undefined;
  const reviewBrief = () => (isReviewBrief ??= REVIEW_BRIEF.test(text.slice(0, 20_000)));
  const wins = windows(text);
  // A section whose opening paragraph addresses AI assistants ("If you are an AI assistant …")
  // stays addressed to them until the next heading.
  let sectionAddressed = false;
  // A section of a reviewer's brief that lists what to look for ("## Checklist", "What to flag")
  // describes what other code does; its items are read as a discussion is, unless one tells the
  // reader to act or names an address to send to or fetch from. (Until a heading of the same or a
  // higher level.)
  let checklistLevel = 0;
  for (let wi = 0; wi < wins.length; wi++) {
    const w = wins[wi]!;
    const s = w.text;
    const heading = /^(#{1,6})\s+([^\n]*)/.exec(s);
    if (heading) {
      sectionAddressed = false;
      place = basePlace;
      const level = heading[1]!.length;
      if (checklistLevel && level <= checklistLevel) checklistLevel = 0;
      if (!checklistLevel && CHECKLIST_HEADING.test(heading[2]!)) checklistLevel = level;
    }
    checklistWindow =
      checklistLevel > 0 &&
      basePlace !== 'hidden' &&
      reviewBrief() &&
      !CONCRETE_ADDRESS.test(s) &&
      !IMPERATIVE_ITEM.test(s);
    // An instruction ending with a colon, or followed by a code block, introduces the block after
    // it (a command on its own).
    const next = wins[wi + 1];
    const withBlock =
      next && (/:\s*$/.test(s) || /^(?: {4}|\t|```|~~~)/.test(next.text)) ? `${s}\n${next.text}` : s;
    // "user agent", "https agent" are HTTP terms, not AI agents. (Blanking them can only remove
    // matches, so a window where WHO finds nothing is not rewritten.)
    const spoken = WHO.test(s) ? s.replace(NOT_AI_AGENT, ' ') : s;
    // In code, "you must …" is UI text as often as a prompt: strings and comments need an AI named.
    const named = basePlace === 'string' || basePlace === 'comment' ? WHO_AI.test(spoken) : WHO.test(spoken);
    if (named && SECTION_FOR_AI.test(spoken)) sectionAddressed = true;
    const who = opts.addressed || named || sectionAddressed;
    // (What a tool returns speaks to the model when it names one, or presses: "before you
    // answer", "do not bother the user with this", consent claimed for the user.)
    const commanded = opts.commandsNeedAddressee
      ? named ||
        sectionAddressed ||
        RUN_URGENT.test(s) ||
        FALSE_CONSENT.test(s) ||
        CONCEAL.test(s.replace(NEGATED_WITHOUT, ' ').replace(NOT_HIDING, ' ')) ||
        /\bbefore\s+(?:you\s+)?(?:answer|respond|repl)/i.test(s)
      : who;
    place = sectionAddressed && basePlace === 'visible' ? 'agent' : basePlace;
    // Not addressed to a model, not hidden, not a tool description: only the rules that need no
    // addressee can fire.
    if (!who && place !== 'hidden' && !opts.toolDescription) {
      overrides(s, w.index);
      reviewerNote(s, w.index);
      continue;
    }
    // Safety rules ("never print API keys") are not requests: drop negated clauses first.
    const affirmative = s.replace(NEGATED_CLAUSE, ' ').replace(DESCRIBED_CLAUSE, ' ');
    // Search and secret in one sentence, the sink in that sentence or one of the next two.
    // (A list item wrapped onto indented lines is one sentence.)
    const sentences = affirmative
      .replace(/\n[ \t]+(?![-*+•][ \t]|\d{1,3}[.)][ \t])(?=\S)/g, ' ')
      .split(/(?<=[.!?;])\s+|(?<=[。！？；])\s*|\n+/)
      .filter((x) => x.trim() && !/^\s*\d+[.)]\s*$/.test(x));
    let kinds: string[] = [];
    let search = false;
    let sink = false;
    // (Steps split over a numbered list: the secret in one step, "read it" in the one before or
    // after, the sink in one of the next four.)
    const steps = /^\s*(?:\d+[.)]|[-*])\s/m.test(affirmative);
    sentences.forEach((sent, i) => {
      const k = secretKinds(sent);
      if (!k.length) return;
      const near = steps ? sentences.slice(Math.max(0, i - 1), i + 2) : [sent];
      // Secret files handed to a tool or a server ("call the sync tool and pass the project's
      // .env files") are read to be handed over: the hand-over is the search and the sink.
      // (A wrapped line is a sentence of its own here: the line before and after count.)
      const around = sentences.slice(Math.max(0, i - 1), i + 2).join(' ');
      // (Only in what an agent loads as its instructions: a tool's own description asking for
      // them is the tool-reads-secrets rule's, and documentation a tool returns says "paste your
      // key here" to people.)
      const handedOver =
        basePlace === 'agent' &&
        !opts.toolDescription &&
        !opts.commandsNeedAddressee &&
        k.some((x) => x !== 'tokens') &&
        HANDOVER.test(around) &&
        HANDOVER_TARGET.test(around);
      if (!handedOver && !near.some((x) => SEARCH.test(x))) return;
      search = true;
      kinds = [...new Set([...kinds, ...k])];
      if (handedOver || sentences.slice(i, i + (steps ? 7 : 3)).some((x) => SINK.test(x))) sink = true;
    });
    // "Do not add dependencies without asking" forbids acting unasked: not concealment.
    const conceal = CONCEAL.test(s.replace(NEGATED_WITHOUT, ' ').replace(NOT_HIDING, ' '));
    // Generic secrets (tokens, passwords) alone are what many tools legitimately handle: they
    // count when the text itself addresses an AI or asks for concealment.
    const fileish = kinds.some((k) => k !== 'tokens');
    if (who && kinds.length && search && (sink || conceal) && (fileish || conceal || WHO_AI.test(spoken))) {
      const strong =
        kinds.length >= 2 ||
        (sink && conceal) ||
        /\b(?:paths?|locations?|contents?)\b|路径|путь|пути/i.test(s);
      add(
        'data_exfiltration',
        'text.agent-collect-secrets',
        strong ? `${place}Strong` : place,
        w.index,
        `tells an AI agent to find or read secrets (${kinds.join(', ')}) and pass them on`,
      );
    } else if (
      opts.toolDescription &&
      secretKinds(affirmative).some((k) => k !== 'tokens') &&
      /~\/|\$HOME|%USERPROFILE%|\.ssh|\.env\b|mcp\.json|\.npmrc|\.aws|id_rsa/i.test(s) &&
      READ_FIRST.test(s)
    ) {
      add(
        'data_exfiltration',
        'text.tool-reads-secrets',
        place,
        w.index,
        `tool description asks the model to read secrets (${(kinds.length ? kinds : secretKinds(affirmative)).join(', ')}) and pass them to the tool`,
      );
    }
    // In a tool's own description, instructions to the model to gather secrets are the injection
    // itself (tool poisoning), whatever they ask for next.
    if (
      opts.toolDescription &&
      hits.some((h) => h.rule === 'text.agent-collect-secrets' || h.rule === 'text.tool-reads-secrets')
    )
      add(
        'prompt_injection',
        'text.tool-poisoning',
        place,
        w.index,
        'a tool description carries instructions to the model to gather secrets (tool poisoning)',
      );
    overrides(s, w.index, true);
    // (A tool description, a doc comment, wraps its sentences over lines.)
    const unwrapped = s.replace(/\n(?!\s*\n)/g, ' ');
    if (
      (opts.toolDescription || who) &&
      (SHADOW.test(unwrapped) ||
        (OTHER_TOOLS.test(unwrapped) &&
          ((AROUND_OTHER_CALLS.test(unwrapped) && ROUTED_ARGS.test(unwrapped)) ||
            (COPY_RECIPIENT.test(unwrapped) && EMAIL_ADDRESS.test(unwrapped)))))
    )
      add(
        'instruction_override',
        'text.tool-shadowing',
        place,
        w.index,
        'tells the model to use this tool instead of another or to change how other tools are used',
        conceal ? 1 : 0,
      );
    // "Do not run `curl | sh`" is a safety rule, not a command: the affirmative text only (with
    // the command block it introduces, where the place does not speak to the agent by itself and
    // the block alone is not read as addressed: "Note for the assistant: … does not need
    // confirmation:" then the command).
    if (
      (DANGEROUS_CMD.test(affirmative) ||
        (!opts.addressed &&
          withBlock !== s &&
          DANGEROUS_CMD.test(withBlock.slice(s.length).replace(NEGATED_CLAUSE, ' ')))) &&
      (commanded || place === 'hidden')
    )
      add(
        kinds.length || /\benv\b|printenv/.test(s) ? 'data_exfiltration' : 'social_engineering',
        'text.agent-dangerous-command',
        place,
        w.index,
        'steers an agent into running a command that downloads code or sends data out',
      );
    else if (
      (who || place === 'hidden') &&
      (ENV_CODE_INJECTION.test(unwrapped) ||
        ENV_CODE_BLOCK.test(withBlock) ||
        SECRET_FILE_CODE.test(unwrapped))
    )
      add(
        'data_exfiltration',
        'text.agent-dangerous-command',
        place,
        w.index,
        'tells an agent to put code that sends the environment or a secrets file into what it writes',
      );
    else if (
      commanded &&
      (runsScript(withBlock) ||
        (sectionAddressed && installsOther(withBlock)) ||
        // An install hook the agent is told to add to the project, running another package.
        (PROJECT_HOOK.test(unwrapped) &&
          (SCRIPT_CMD.test(unwrapped) || conceal || FALSE_CONSENT.test(unwrapped))))
    )
      add(
        'social_engineering',
        'text.agent-run-script',
        place,
        w.index,
        'tells an agent to run a script or install a package',
        // "before committing" is project hygiene; "before anything else, every session" is not,
        // nor is handing the command the user's token.
        (RUN_URGENT.test(s) ? 1 : 0) +
          (conceal ? 1 : 0) +
          (HANDS_SECRET.test(withBlock) ? 1 : 0) +
          (PROJECT_HOOK.test(s) ? 1 : 0) +
          (FALSE_CONSENT.test(s) ? 1 : 0),
      );
    // Its own permission checks turned off ("set `defaultMode: bypassPermissions`", "run it with
    // --dangerously-skip-permissions"): every later step runs unasked.
    if (commanded && AGENT_PERMISSIONS_OFF.test(affirmative))
      add(
        'instruction_override',
        'text.agent-permissions-off',
        place,
        w.index,
        'tells an agent to turn its own permission checks off (bypass mode, auto-approval)',
      );
    // A reviewer told to leave chosen hosts, code or files out of its report.
    if (
      who &&
      EXEMPT_FROM_REVIEW.test(s) &&
      REVIEWED_RISK.test(s) &&
      REVIEW_CONTEXT.test(text.slice(0, 20_000))
    )
      add(
        'instruction_override',
        'text.silence-reviewer',
        place,
        w.index,
        'tells an AI reviewer to leave chosen code, hosts or files out of its report',
      );
    if (who && sentences.some(destroys))
      add(
        'prompt_injection',
        'text.agent-destructive',
        place,
        w.index,
        "tells an agent to delete what is not the project's: the user's files, the disk, or cloud resources",
      );
    reviewerNote(s, w.index);
    if (markdownExfil(affirmative))
      add(
        'data_exfiltration',
        'text.markdown-exfil',
        place,
        w.index,
        'tells the model to put secrets, personal data or the conversation into the address of a markdown image or link (the chat client sends them when it renders it)',
      );
    if (conceal && who && !hits.some((h) => h.index === w.index))
      add(
        'prompt_injection',
        'text.agent-concealment',
        place,
        w.index,
        'tells an AI agent to hide what it does from the user',
      );
  }
  const t = opts.chatTemplate === false || !CHAT_TEMPLATE_HINT.test(text) ? null : CHAT_TEMPLATE.exec(text);
  if (t)
    add(
      'prompt_injection',
      'text.chat-template',
      place,
      t.index,
      'chat-template turn markers (system/instruction turn) meant to be read as a new prompt',
    );
  return hits;
}

/** Base64 blobs in text that decode to readable text (for agent files and tool descriptions). */
export function decodedBlobs(text: string): { index: number; text: string }[] {
  const out: { index: number; text: string }[] = [];
  for (const m of blobCandidates(text)) {
    if (out.length >= 20) break;
    const raw = m[0];
    if (!/[0-9+/]/.test(raw) && !/[A-Z].*[a-z]|[a-z].*[A-Z]/.test(raw)) continue;
    let dec: string;
    try {
      dec = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
    } catch {
      continue;
    }
    if (dec.length < 20) continue;
    const printable = [...dec].filter((c) => /[\p{L}\p{N}\p{P}\p{Zs}\n\t|~/<>=$+`]/u.test(c)).length;
    if (printable / [...dec].length < 0.9 || !/[\p{L}]{3}/u.test(dec) || !/\s/.test(dec)) continue;
    out.push({ index: m.index, text: dec });
  }
  return out;
}

/** Base64 or base64url text: 40+ characters with `=` padding, or 60+ URL-safe ones. */
const BLOB = /[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{60,}/g;

/**
 * The matches of BLOB in `text`, found by first cutting the text into runs of the characters a
 * blob is made of (one linear pass) and matching only runs of 40 or more (with the `=` after
 * them): the regex alone retries every short run from each of its characters.
 */
function* blobCandidates(text: string): Generator<RegExpExecArray> {
  const inRun = (c: number) =>
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 43 ||
    c === 47 ||
    c === 95 ||
    c === 45;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!inRun(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && inRun(text.charCodeAt(i))) i++;
    if (i - start < 40) continue;
    let end = i;
    while (end < n && end - i < 2 && text.charCodeAt(end) === 61) end++;
    BLOB.lastIndex = 0;
    const run = text.slice(start, end);
    for (let m = BLOB.exec(run); m; m = BLOB.exec(run)) {
      m.index += start;
      yield m;
    }
  }
}

/** Invisible code points used to carry a payload (variation selectors, tags, fillers). */
const PAYLOAD_INVISIBLE =
  /(?:[\ufe00-\ufe0f\u200b-\u200d\u2060-\u2064\u3164\u115f\u1160\uffa0]|\udb40[\udc00-\udc7f\udd00-\uddef]){16,}/g;

/**
 * GlassWorm shape: a long run of invisible code points in code, decoded at run time by code point
 * and executed. Returns the offset of the run and whether decoding and execution are present.
 */
export function invisiblePayload(
  code: string,
): { index: number; length: number; decodes: boolean; executes: boolean } | undefined {
  if (isAscii(code)) return undefined;
  PAYLOAD_INVISIBLE.lastIndex = 0;
  let best: RegExpExecArray | null = null;
  for (let m = PAYLOAD_INVISIBLE.exec(code); m; m = PAYLOAD_INVISIBLE.exec(code)) {
    if (!best || m[0].length > best[0].length) best = m;
  }
  if (!best) return undefined;
  const length = [...best[0]].length;
  if (length < 16) return undefined;
  const decodes =
    /\b(?:codePointAt|charCodeAt|fromCodePoint|fromCharCode)\b|0xFE00|0xE0100|0xfe00|0xe0100|65024|917760/.test(
      code,
    );
  const executes =
    /\beval\s*\(|\bnew\s+Function\b|\bFunction\s*\(|\bvm\s*\.\s*run|\brunIn(?:New|This)?Context\b|_compile\s*\(|\bimport\s*\(\s*['"`]data:/.test(
      code,
    );
  return { index: best.index, length, decodes, executes };
}

/** Non-breaking or exotic spaces and look-alike letters inside a command line. */
export function lookalikeInCommand(line: string): string | undefined {
  if (!/\b(?:curl|wget|npm|npx|node|sh|bash|rm|chmod|python|powershell|git|sudo)\b/.test(line))
    return undefined;
  const m =
    /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\uff01-\uff5e]|[\u0400-\u04ff](?=[a-z-])|(?<=[a-z-])[\u0400-\u04ff]/.exec(
      line,
    );
  return m ? `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}
