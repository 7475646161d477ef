/**
 * The built-in taint policy: what `saboteur validate` and the `taint` defense use when no policy
 * file is given, and what a policy file extends unless it says `extends: none`. It is the same
 * document a user would write in YAML (kebab-case keys); every rule says why it is there.
 *
 * Labels, one by one (README: The taint validator):
 *   Sources (what data or instructions carry)
 *   - SENSITIVE_READ     the user's own private data: files, databases, records, transactions.
 *   - CREDENTIAL_ACCESS  passwords, tokens, keys, login data, key files.
 *   - PII_READ           personal data about people: contacts, profiles, messages, client lists.
 *   - UNTRUSTED_CONTENT  text from outside the request: web pages, search results, inboxes,
 *                        downloads, posts, and every tool whose output a third party writes.
 *   - PROMPT_OVERRIDE    text that tries to give the agent new orders ("ignore previous
 *                        instructions", "you must strictly adhere to ..."): an injection, found
 *                        by pattern in the request, tool results and agent messages.
 *   - HARMFUL_INTENT     a request or message that asks for harm (malware, fraud, harassment, ...):
 *                        keyword patterns here are a weak net; the LLM intent annotation is the
 *                        stronger one (prompts/taint-intent.md).
 *   Hard sinks (what the MCP server stages)
 *   - EXTERNAL_SEND      data leaves to someone: email, messages, uploads, HTTP posts, network code.
 *   - PRIVILEGED_EXEC    acting with powers beyond the task: sudo, system paths, system daemons,
 *                        attacker tools. Never inferred from a request: only the policy authorises it.
 *   - CODE_EXEC          running code or shell commands.
 *   - DESTRUCTIVE_WRITE  deleting, overwriting, encrypting or altering data or files.
 *   - FINANCIAL_TRANSFER moving money: payments, transfers, purchases, orders, gift cards.
 *   - PUBLIC_POST        publishing: posts, comments, reviews, uploads to public sites, issues.
 *
 * Benchmarks: AgentHarm, ASB, RedCode and SafeArena tool specs carry their own labels, which the
 * validator always reads; the rules below add the argument-level ones (what a piece of code
 * touches) and name the tools they know. A tool no spec and no rule below labels is read by the
 * tool profile (tool-profile.ts: MCP annotations, HTTP method and argument roles first, the verbs
 * of its name and description last, as a guess) and staged when nothing places it and it takes
 * something a sink needs (`unknown-tools: stage`). A tool whose annotations, method or name say it
 * only returns data is not made a sink by the rules below on its name. Tool results and
 * messages are scanned for injected instructions (injection.ts, `detect-injection`); links and
 * injected instructions that a message body carries onward are blocked (`onward`). What a request
 * asks for comes from its action, not from keyword rules (`intents` is empty here).
 */
import type { PolicyFile } from './policy.js';

/** Absolute system paths, not part of a longer path (RedCode's harmless doubles live under /workspace). */
const SYSTEM_PATH =
  '(?<![\\w./~-])/(?:etc|root|var|boot|sys|proc|app|dev/(?!null\\b)|usr(?!/(?:bin|sbin|lib|lib64|local|include|libexec|share)\\b))(?=[/\'"\\s*`),;]|$)';
const CODE_TOOL = '/(exec|run|eval|shell|bash|terminal|python|code|command|cmd|script|interpreter)/';
const CODE_ARG = '/^(code|command|cmd|script|program|source|shell_command|input)$/';

export const DEFAULT_POLICY: PolicyFile = {
  version: 1,
  extends: 'none',
  unverifiable: 'block',
  'unknown-tools': 'stage',
  'detect-injection': true,
  onward: { links: 'block', instructions: 'block' },
  'control-labels': ['PROMPT_OVERRIDE', 'HARMFUL_INTENT'],
  tools: [
    // Files
    {
      name: '/^(read|cat|open|view|load|get)_?(file|files|document|doc|text|txt|pdf_text)$/',
      sources: ['SENSITIVE_READ'],
      why: "reads the user's files",
    },
    { name: ['get_dir_list', 'list_files', '/^list_?dir(ectory)?$/', 'ls'], sources: ['SENSITIVE_READ'], why: "lists the user's files" },
    {
      name: '/^(delete|remove|rm|unlink|erase|wipe|truncate|overwrite|shred|format)(_|$)/',
      sinks: ['DESTRUCTIVE_WRITE'],
      why: 'deletes or overwrites data',
    },
    { name: '/(encrypt|ransom)/', sinks: ['DESTRUCTIVE_WRITE'], why: 'makes data unreadable' },
    // Shell and code
    {
      name: '/^(shell|bash|sh|terminal|run_command|run_shell|execute_command|exec_command|cmd|powershell|subprocess)$/',
      sinks: ['CODE_EXEC'],
      why: 'runs shell commands',
    },
    {
      name: '/^(execute_code|run_code|run_python|python|code_interpreter|exec|eval|execute|run_script|execute_python)$/',
      sinks: ['CODE_EXEC'],
      why: 'runs code',
    },
    // AgentHarm's simulated terminal carries PRIVILEGED_EXEC in its spec; the argument rules below
    // put it back where the command itself asks for privilege.
    { name: 'terminal', 'not-sinks': ['PRIVILEGED_EXEC'], why: 'a terminal is privileged only through what its command does' },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches: SYSTEM_PATH,
      sinks: ['PRIVILEGED_EXEC'],
      why: 'the code touches system paths (/etc, /root, /var, /usr, /proc, /sys, /boot, /app)',
    },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches:
        '\\bsudo\\b|\\bsu\\s+-|\\bchown\\b|\\bchmod\\s+[0-7]*[67][0-7]{2}\\b|setuid|sudoers|crontab|systemctl|\\buseradd\\b|\\busermod\\b|iptables|\\bmount\\b',
      sinks: ['PRIVILEGED_EXEC'],
      why: 'the code changes privileges, users, services or the system configuration',
    },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches: '\\b(sshd|dockerd|containerd|systemd|crond?|nginx|apache2?|httpd|mysqld|postgres|rsyslogd|udevd|dbus-daemon|journald)\\b',
      sinks: ['PRIVILEGED_EXEC'],
      why: 'the code acts on a system daemon',
    },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches:
        '\\brm\\s+-\\w*[rf]|\\brm\\s|os\\.remove|os\\.unlink|\\.unlink\\(|shutil\\.rmtree|os\\.rmdir|\\btruncate\\b|\\bmkfs|\\bdd\\s+if=|\\bshred\\b|\\bdrop\\s+(table|database)\\b|\\bdelete\\s+from\\b',
      sinks: ['DESTRUCTIVE_WRITE'],
      why: 'the code deletes files or data',
    },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches:
        'socket\\.|requests\\.(post|put|patch)|urllib|http\\.client|httpx|aiohttp|\\bcurl\\b|\\bwget\\b|\\bnc\\s|netcat|/dev/tcp|smtplib|ftplib|paramiko|telnetlib',
      sinks: ['EXTERNAL_SEND'],
      why: 'the code opens network connections',
    },
    {
      name: CODE_TOOL,
      argument: CODE_ARG,
      matches:
        '(?<![\\w./~-])/etc/(shadow|gshadow|sudoers)|(?<![\\w./~-])(/root|/home/[^/\\s\'"]+|~)/\\.(ssh|aws|gnupg|netrc|git-credentials|pgpass|docker)\\b|id_rsa|id_ed25519|private[_ ]key',
      sources: ['CREDENTIAL_ACCESS'],
      why: 'the code reads credential files',
    },
    // HTTP and the web
    {
      name: '/^(http_post|post_request|http_request|send_request|api_call|webhook|call_webhook|curl|upload|upload_file|upload_data|ftp_upload)$/',
      sinks: ['EXTERNAL_SEND'],
      why: 'sends data over the network',
    },
    {
      name: '/^(http_get|fetch|fetch_url|browse|get_webpage|goto|click|open_url|read_url|web_search|search|search_web|scrape\\w*|download\\w*|query_\\w*_search|get_public_databases|convert_pdf_to_text)$/',
      sources: ['UNTRUSTED_CONTENT'],
      why: 'returns content written by third parties',
    },
    // Email
    {
      name: '/^(send_e?mail|send_mail|reply_e?mail|forward_e?mail|gmail_send\\w*|email_send\\w*)$/',
      sinks: ['EXTERNAL_SEND'],
      why: 'sends an email',
    },
    {
      name: '/^(read_e?mails?|get_\\w*e?mails|fetch_inbox|search_e?mails?|list_e?mails)$/',
      sources: ['PII_READ', 'UNTRUSTED_CONTENT'],
      why: 'returns mail that others wrote, about people',
    },
    // Messaging
    {
      name: '/^(send_\\w*message\\w*|send_dm\\w*|dm_\\w+|send_direct_message\\w*|post_message|slack_post\\w*|send_sms|send_text|whatsapp\\w*|telegram_send\\w*|discord_send\\w*|teams_send\\w*|notify\\w*|report_x_post|submit_assignment)$/',
      sinks: ['EXTERNAL_SEND'],
      why: 'sends a message to someone',
    },
    {
      name: '/^(read_messages|get_\\w*messages\\w*|get_direct_messages\\w*)$/',
      sources: ['PII_READ', 'UNTRUSTED_CONTENT'],
      why: 'returns messages that others wrote',
    },
    // Payments
    {
      // "pay" and "order" lead a name as verbs ("pay_invoice", "payVendor", "order_food"), not as the nouns of "paymentCardList" or "orderGet".
      name: '/^(transfer\\w*|pay(?:_\\w+|[A-Z]\\w*)?|send_money|wire\\w*|purchase\\w*|buy\\w*|order(?:_\\w+)?|checkout\\w*|refund\\w*|withdraw\\w*|redeem\\w*|submit_\\w*order|make_\\w*purchases?|donate\\w*)$/',
      sinks: ['FINANCIAL_TRANSFER'],
      why: 'moves money',
    },
    {
      name: '/^(get_paypal_transactions|get_\\w*transactions|get_\\w*balance|get_bank\\w*)$/',
      sources: ['SENSITIVE_READ', 'PII_READ'],
      why: 'returns financial records',
    },
    // Social posting
    {
      name: '/^(post_(?:on|to|in)_\\w+|post_\\w*(?:webpage|comment|reply|tweet|story|stories|video|photo|status|review|article|blog)\\w*|tweet\\w*|publish\\w*|share_on_\\w+|create_\\w*(post|story)|comment\\w*|post|repost\\w*|retweet\\w*|upload_\\w*video|submit_post|submit_comment|write_review|create_issue|personal_website_upload|post_to_\\w+)$/',
      sinks: ['PUBLIC_POST'],
      why: 'publishes content',
    },
    // Databases
    {
      name: '/^(query_db|db_query|run_query|sql|execute_sql|select|get_info_from_database|extract_data_from_database|query_database)$/',
      sources: ['SENSITIVE_READ'],
      why: 'reads records from a database',
    },
    {
      name: '/^(drop_\\w+|db_write|insert_\\w+|update_\\w*record\\w*|delete_\\w*record\\w*)$/',
      sinks: ['DESTRUCTIVE_WRITE'],
      why: 'writes to a database',
    },
    {
      name: '*',
      argument: '/^(query|sql|statement)$/',
      matches: '\\b(drop|delete|truncate|update|alter|insert)\\b',
      sinks: ['DESTRUCTIVE_WRITE'],
      why: 'the query modifies data',
    },
    // Secrets
    {
      name: '/^(get_secret\\w*|read_secret\\w*|get_\\w*password\\w*|get_\\w*credential\\w*|get_\\w*token\\w*|get_api_key\\w*|vault_\\w+|get_all_login_data|keychain\\w*|login\\w*)$/',
      sources: ['CREDENTIAL_ACCESS'],
      why: 'returns credentials',
    },
    // People
    {
      name: '/^(get_contacts|list_contacts|search_contacts|lookup_contact\\w*|get_\\w*profile\\w*|get_friends\\w*|get_client_emails|query_x_user\\w*|search_people|scrape_reddit_usernames|get_pinterest_accounts|get_tinder_choices)$/',
      sources: ['PII_READ'],
      why: 'returns personal data',
    },
  ],
  targets: [
    {
      argument:
        '/^(to|cc|bcc|recipients?|receivers?|email|emails|email_address|to_email|recipient_email|address|user|username|user_name|handle|account_handle|phone|phone_number|number|contact|channel|chat_id|friend|target_user|forum|subreddit|project)$/',
      kind: 'recipient',
    },
    {
      argument: '/^(url|urls|link|uri|endpoint|webhook|webhook_url|website|domain|host|server|server_url|upload_url|destination_url)$/',
      kind: 'url',
    },
    {
      argument:
        '/^(wallet|wallet_address|iban|account|account_number|account_id|to_account|bank_id|payee|beneficiary|recipient_account|card_number|paypal_email)$/',
      kind: 'payee',
    },
    {
      argument:
        '/^(path|file|file_path|filepath|filename|file_name|dir|directory|target_directory|folder|save_path|destination|dest|output_path)$/',
      kind: 'path',
    },
    { argument: '/^(command|cmd|code|script|program|shell_command)$/', kind: 'command' },
  ],
  authorised: [],
  directories: [
    'get_contacts',
    'list_contacts',
    'search_contacts',
    'lookup_contact*',
    'get_friends_info',
    'get_client_emails',
    'get_dir_list',
    'list_files',
    'list_dir*',
  ],
  content: [
    {
      pattern:
        '\\b(ignore|disregard|forget|override)\\b.{0,20}\\b(all |any |the |your )?(previous|prior|above|earlier|preceding|original|system)\\b.{0,12}\\b(instructions?|prompts?|directions?|rules|guidelines|task)',
      labels: ['PROMPT_OVERRIDE'],
      why: 'tells the agent to drop its instructions',
    },
    {
      pattern:
        '\\byou must (strictly )?(adhere to|follow|obey|comply with|execute) (the following|these|this|my|the next) (instructions?|orders?|commands?|steps?)',
      labels: ['PROMPT_OVERRIDE'],
      why: 'orders the agent to follow new instructions',
    },
    {
      pattern: '\\bdo not use (any )?other tools\\b|\\buse only the \\S+ tool\\b',
      labels: ['PROMPT_OVERRIDE'],
      why: 'steers the agent to one tool',
    },
    {
      pattern:
        '\\b(new|updated|real|actual) (system )?instructions?\\s*:|\\bsystem (prompt )?override\\b|<\\|im_start\\|>|</?(system|instructions?)>|\\[(system|admin) (message|instruction)\\]',
      labels: ['PROMPT_OVERRIDE'],
      why: 'poses as a system instruction',
    },
    {
      pattern: '\\bdo not (tell|inform|notify|alert|mention (this|it) to) the user\\b',
      labels: ['PROMPT_OVERRIDE'],
      why: 'asks the agent to hide something from the user',
    },
    {
      pattern: '\\b(ransomware|malware|keylogger|botnet|ddos|phishing|spyware|trojan|backdoor|rootkit|credential stuffing)\\b',
      labels: ['HARMFUL_INTENT'],
      on: ['request', 'message'],
      why: 'asks for malicious software or attacks',
    },
    {
      pattern:
        '\\b(launder\\w*|counterfeit\\w*|fake (passports?|ids?|identit\\w+|documents?|reviews?|news)|forged? (documents?|signatures?|passports?)|tax evasion|ponzi)\\b',
      labels: ['HARMFUL_INTENT'],
      on: ['request', 'message'],
      why: 'asks for fraud',
    },
    {
      pattern:
        '\\b(blackmail\\w*|extort\\w*|harass\\w*|doxx?\\w*|stalk\\w*|threaten\\w*|intimidat\\w*|bully\\w*|sextort\\w*|revenge porn|hateful|hate speech|racist|racial slurs?)\\b',
      labels: ['HARMFUL_INTENT'],
      on: ['request', 'message'],
      why: 'asks to harm or coerce a person',
    },
    {
      pattern:
        '\\b(steal\\w*|stolen|hack (into|someone)|break into|without (their|his|her|the owner.s) (consent|knowledge|permission)|dark ?web|alpha ?bay|untraceable|illegal\\w*|illegitimate|illicit|leaked (private |intimate |nude |personal )?(photos?|images?|pictures?|videos?|nudes|documents?|emails?|files?|data))\\b',
      labels: ['HARMFUL_INTENT'],
      on: ['request', 'message'],
      why: 'asks for theft or illegal acts',
    },
    {
      pattern:
        '\\b(bomb|explosives?|nerve agent|bioweapon\\w*|chemical weapons?|ghost gun)\\b|\\bclaim\\w* (that )?it.?s (authentic|real|genuine)\\b',
      labels: ['HARMFUL_INTENT'],
      on: ['request', 'message'],
      why: 'asks for weapons or deception',
    },
  ],
  // No intent rules: what a request asks for is read from its action (its verb and object, negation
  // and questions included: intent.ts) and the relation between actions and sinks (lexicon.ts,
  // COVERS); a noun alone ("the most recent email", "my wallet") asks for nothing. The `intents`
  // key stays for a team's own rules (docs/taint-policy.md).
  intents: [],
  'policy-only': ['PRIVILEGED_EXEC'],
  forbidden: [
    {
      from: ['SENSITIVE_READ', 'PII_READ'],
      to: ['EXTERNAL_SEND'],
      unless: 'authorised-target',
      why: 'private data leaves only to recipients the request or the policy names',
    },
    {
      from: ['SENSITIVE_READ', 'PII_READ'],
      to: ['PUBLIC_POST'],
      unless: 'requested-source',
      why: 'private data is published only where the request asks to publish, from reads it points at',
    },
    {
      from: ['CREDENTIAL_ACCESS'],
      to: ['EXTERNAL_SEND', 'PUBLIC_POST', 'CODE_EXEC', 'PRIVILEGED_EXEC'],
      why: 'credentials never leave, and never feed code',
    },
    { from: ['UNTRUSTED_CONTENT'], to: ['CODE_EXEC', 'PRIVILEGED_EXEC'], why: 'code that outside content wrote is not run' },
    {
      from: ['PROMPT_OVERRIDE'],
      to: ['EXTERNAL_SEND', 'PRIVILEGED_EXEC', 'CODE_EXEC', 'DESTRUCTIVE_WRITE', 'FINANCIAL_TRANSFER', 'PUBLIC_POST'],
      why: 'an injected instruction reaches no hard sink',
    },
    {
      from: ['HARMFUL_INTENT'],
      to: ['EXTERNAL_SEND', 'PRIVILEGED_EXEC', 'CODE_EXEC', 'DESTRUCTIVE_WRITE', 'FINANCIAL_TRANSFER', 'PUBLIC_POST'],
      why: 'a harmful request reaches no hard sink',
    },
  ],
  release: [
    {
      tool: '/^(redact\\w*|anonymi[sz]e\\w*|sanitiz\\w*|mask_pii\\w*)$/',
      labels: ['PII_READ', 'SENSITIVE_READ'],
      why: "the tool's output has the personal and sensitive data removed",
    },
  ],
};
