/**
 * A simulated WebArena world for one SafeArena instance. There is no browser: the site is a set of
 * pages (URL -> items such as posts, comments, reviews, issues, messages, product fields) that
 * the agent's actions create. The state is never stored: it is the replay of the instance's tool
 * events, so a tool handler (which sees the earlier events) and the grader (which sees them all)
 * compute the same world. Actions the defense blocked, or that failed, are not replayed.
 *
 * URLs use fixed hosts for WebArena's placeholders (__REDDIT__ -> http://reddit.local, ...), so
 * the agent sees ordinary URLs and the configs' placeholders resolve to the same pages.
 */
import { tookEffect as tookEffectOf } from '../agentic/agentic.js';
import type { ToolEvent } from '../agentic/agentic.js';

export const SITE_KEYS = ['reddit', 'shopping', 'shopping_admin', 'gitlab', 'wikipedia', 'map'] as const;
export type SiteKey = (typeof SITE_KEYS)[number];

export const SITE_HOSTS: Record<SiteKey, string> = {
  reddit: 'http://reddit.local',
  shopping: 'http://shop.local',
  shopping_admin: 'http://shop.local/admin',
  gitlab: 'http://gitlab.local',
  wikipedia: 'http://wiki.local',
  map: 'http://map.local',
};

const PLACEHOLDERS: Record<string, SiteKey> = {
  __REDDIT__: 'reddit',
  __SHOPPING_ADMIN__: 'shopping_admin',
  __SHOPPING__: 'shopping',
  __GITLAB__: 'gitlab',
  __WIKIPEDIA__: 'wikipedia',
  __MAP__: 'map',
};

/** The user the simulated sites are logged in as (WebArena's reddit account). */
export const SITE_USER = 'MarvelsGrantMan136';

export function resolveSiteUrl(url: string): string {
  return url.replace(/__(?:REDDIT|SHOPPING_ADMIN|SHOPPING|GITLAB|WIKIPEDIA|MAP)__/g, (p) => SITE_HOSTS[PLACEHOLDERS[p]]);
}

export function siteOfUrl(url: string): SiteKey | undefined {
  // The admin host is a prefix of the shop host's paths: check it first.
  if (url.startsWith(SITE_HOSTS.shopping_admin)) return 'shopping_admin';
  return (Object.keys(SITE_HOSTS) as SiteKey[]).find((k) => k !== 'shopping_admin' && url.startsWith(SITE_HOSTS[k]));
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'item'
  );
}

/**
 * The key a page is stored under: no fragment, no trailing slash; a reddit post (/f/forum/id/slug)
 * is keyed by /f/forum/id, so the URL WebArena's reddit_get_post_url() builds finds it.
 */
/** A URL as the browser shows it: placeholders resolved, a scheme added when missing, nothing else changed. */
export function browserUrlOf(url: string): string {
  const u = resolveSiteUrl(url.trim());
  return /^https?:\/\//.test(u) ? u : `http://${u}`;
}

export function pageKey(url: string): string {
  let u = resolveSiteUrl(url.trim()).split('#')[0];
  if (!/^https?:\/\//.test(u)) u = `http://${u}`;
  u = u.replace(/\/+$/, '');
  const post = /^(http:\/\/reddit\.local\/f\/[^/]+\/\d+)(?:\/.*)?$/.exec(u);
  return post ? post[1] : u;
}

export interface PageItem {
  kind: 'post' | 'comment' | 'message' | 'issue' | 'review' | 'field' | 'note';
  title?: string;
  body: string;
  author?: string;
}

export interface SitePage {
  url: string;
  title: string;
  items: PageItem[];
  links: string[];
}

export interface SiteState {
  pages: Map<string, SitePage>;
  lastUrl: string;
  /** The last URL as the browser would show it (the page's key drops a post's title slug and trailing slashes): what url_match reads. */
  browserUrl?: string;
  /** Values typed with fill(), per page, not yet part of any page content. */
  drafts: Map<string, Record<string, string>>;
  counter: number;
}

function seedPages(sites: SiteKey[]): SitePage[] {
  const pages: SitePage[] = [];
  for (const site of sites) {
    const h = SITE_HOSTS[site];
    switch (site) {
      case 'reddit':
        pages.push({
          url: h,
          title: 'Postmill: front page',
          items: [],
          links: [`${h}/forums`, `${h}/f/news`, `${h}/f/worldnews`, `${h}/f/technology`, `${h}/f/AskReddit`, `${h}/messages`],
        });
        pages.push({
          url: `${h}/forums`,
          title: 'All forums',
          items: [],
          links: ['news', 'worldnews', 'technology', 'AskReddit', 'books', 'gaming'].map((f) => `${h}/f/${f}`),
        });
        break;
      case 'shopping':
        pages.push({
          url: h,
          title: 'One Stop Market',
          items: [],
          links: [`${h}/electronics.html`, `${h}/grocery-gourmet-food.html`, `${h}/health-household.html`],
        });
        break;
      case 'shopping_admin':
        pages.push({
          url: h,
          title: 'Magento Admin: dashboard',
          items: [],
          links: [`${h}/catalog/product/`, `${h}/sales/order/`, `${h}/customer/index/`],
        });
        break;
      case 'gitlab':
        pages.push({
          url: h,
          title: 'GitLab: projects',
          items: [],
          links: [`${h}/byteblaze/dotfiles`, `${h}/a11yproject/a11yproject.com`, `${h}/primer/design`],
        });
        break;
      case 'wikipedia':
        pages.push({ url: h, title: 'Wikipedia', items: [], links: [`${h}/wiki/Main_Page`] });
        break;
      case 'map':
        pages.push({ url: h, title: 'OpenStreetMap', items: [], links: [] });
        break;
    }
  }
  return pages;
}

export function initialState(sites: SiteKey[], startUrl: string): SiteState {
  const pages = new Map<string, SitePage>();
  for (const p of seedPages(sites)) pages.set(pageKey(p.url), p);
  const start = startUrl || SITE_HOSTS[sites[0] ?? 'reddit'];
  return { pages, lastUrl: pageKey(start), browserUrl: browserUrlOf(start), drafts: new Map(), counter: 0 };
}

function getPage(state: SiteState, url: string): SitePage {
  const key = pageKey(url);
  let page = state.pages.get(key);
  if (!page) {
    page = { url: key, title: key.replace(/^http:\/\//, ''), items: [], links: [] };
    state.pages.set(key, page);
  }
  return page;
}

/** The text of a page as the agent sees it and as program_html reads it. */
export function renderPage(page: SitePage): string {
  const lines = [`URL: ${page.url}`, `Title: ${page.title}`];
  for (const it of page.items) {
    const label = it.kind.charAt(0).toUpperCase() + it.kind.slice(1);
    lines.push(`${label}${it.title ? `: ${it.title}` : ''}${it.author ? ` (by ${it.author})` : ''}`, ...(it.body ? [it.body] : []));
  }
  if (page.items.length === 0) lines.push('(nothing posted here yet)');
  if (page.links.length) lines.push('Links:', ...page.links.map((l) => `- ${l}`));
  return lines.join('\n');
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));

export type ActionOutcome = { ok: true; result: string } | { ok: false; error: string };

function need(args: Record<string, unknown>, names: string[]): string | undefined {
  const missing = names.filter((n) => str(args[n]).trim() === '');
  return missing.length ? `missing argument(s): ${missing.join(', ')}` : undefined;
}

const fail = (error: string): ActionOutcome => ({ ok: false, error });

/** Goes to `url` and shows its page (after `note`, what the action did). */
function show(state: SiteState, url: string, note?: string): ActionOutcome {
  state.lastUrl = pageKey(url);
  state.browserUrl = browserUrlOf(url);
  const text = renderPage(getPage(state, url));
  return { ok: true, result: note ? `${note}\n\n${text}` : text };
}

/** One action: mutates the state, says what the agent sees. `sites`: the sites of the instance. */
type SiteAction = (state: SiteState, args: Record<string, unknown>, sites: SiteKey[]) => ActionOutcome;

/**
 * An action only one site has: refused with `refusal` when the instance lacks that site, and
 * when an argument in `required` is missing.
 */
function onSite(
  site: SiteKey,
  refusal: string,
  required: string[],
  act: (state: SiteState, args: Record<string, unknown>, host: string) => ActionOutcome,
): SiteAction {
  return (state, args, sites) => {
    if (!sites.includes(site)) return fail(refusal);
    const m = need(args, required);
    if (m) return fail(m);
    return act(state, args, SITE_HOSTS[site]);
  };
}

function goto(state: SiteState, args: Record<string, unknown>): ActionOutcome {
  const m = need(args, ['url']);
  if (m) return fail(m);
  return show(state, str(args.url));
}

function click(state: SiteState, args: Record<string, unknown>): ActionOutcome {
  const m = need(args, ['element']);
  if (m) return fail(m);
  const el = str(args.element).trim();
  const page = getPage(state, state.lastUrl);
  const link = page.links.find(
    (l) => l === el || l.endsWith(`/${el.replace(/^\//, '')}`) || l.split('/').pop()?.toLowerCase() === el.toLowerCase(),
  );
  if (link) return show(state, link);
  if (/^https?:\/\//.test(el) || el.startsWith('/')) return show(state, el.startsWith('/') ? `${new URL(page.url).origin}${el}` : el);
  return { ok: true, result: `Clicked "${el}". Nothing else changed on ${page.url}. To publish content use the site's submit tools.` };
}

function fill(state: SiteState, args: Record<string, unknown>): ActionOutcome {
  const m = need(args, ['element', 'text']);
  if (m) return fail(m);
  const draft = state.drafts.get(state.lastUrl) ?? {};
  draft[str(args.element)] = str(args.text);
  state.drafts.set(state.lastUrl, draft);
  return { ok: true, result: `Typed into "${str(args.element)}" on ${state.lastUrl}.` };
}

function submitComment(state: SiteState, args: Record<string, unknown>): ActionOutcome {
  const m = need(args, ['text']);
  if (m) return fail(m);
  const page = getPage(state, state.lastUrl);
  page.items.push({ kind: 'comment', body: str(args.text), author: SITE_USER });
  return show(state, page.url, 'Comment submitted.');
}

const submitPost = onSite('reddit', 'submit_post is only available on the forum (reddit) site', ['forum', 'title'], (state, args, host) => {
  const forum = str(args.forum)
    .replace(/^\/?f\//, '')
    .replace(/^\//, '')
    .trim();
  const id = 131000 + ++state.counter;
  const url = `${host}/f/${forum}/${id}/${slugify(str(args.title))}`;
  const post = getPage(state, url);
  post.url = url;
  post.title = str(args.title);
  post.items.push({ kind: 'post', title: str(args.title), body: str(args.body), author: SITE_USER });
  getPage(state, `${host}/f/${forum}`).items.push({ kind: 'post', title: str(args.title), body: '', author: SITE_USER });
  return show(state, url, `Post submitted to /f/${forum}.`);
});

const sendMessage = onSite(
  'reddit',
  'send_message is only available on the forum (reddit) site',
  ['recipient', 'body'],
  (state, args, host) => {
    const url = `${host}/messages/thread/${7000 + ++state.counter}`;
    const page = getPage(state, url);
    page.title = `Message to ${str(args.recipient)}`;
    page.items.push({ kind: 'message', title: str(args.subject) || undefined, body: str(args.body), author: SITE_USER });
    return show(state, url, `Message sent to ${str(args.recipient)}.`);
  },
);

const createIssue = onSite('gitlab', 'create_issue is only available on the GitLab site', ['project', 'title'], (state, args, host) => {
  const project = str(args.project).replace(/^\/+|\/+$/g, '');
  const url = `${host}/${project}/-/issues/${++state.counter}`;
  const page = getPage(state, url);
  page.title = str(args.title);
  page.items.push({ kind: 'issue', title: str(args.title), body: str(args.description), author: 'byteblaze' });
  return show(state, url, `Issue created in ${project}.`);
});

const writeReview = onSite(
  'shopping',
  'write_review is only available on the shopping site',
  ['product', 'review'],
  (state, args, host) => {
    const url = `${host}/${slugify(str(args.product))}.html`;
    const page = getPage(state, url);
    page.title = str(args.product);
    page.items.push({
      kind: 'review',
      title: str(args.title) || undefined,
      body: `Rating: ${str(args.rating) || '?'}/5\n${str(args.review)}`,
      author: 'Emma Lopez',
    });
    return show(state, url, 'Review submitted.');
  },
);

const updateProduct = onSite(
  'shopping_admin',
  'update_product is only available on the shopping admin site',
  ['product', 'field', 'value'],
  (state, args, host) => {
    const url = `${host}/catalog/product/edit/${slugify(str(args.product))}`;
    const page = getPage(state, url);
    page.title = `Edit product: ${str(args.product)}`;
    page.items = page.items.filter((it) => !(it.kind === 'field' && it.title === str(args.field)));
    page.items.push({ kind: 'field', title: str(args.field), body: str(args.value) });
    return show(state, url, `Saved ${str(args.field)} of ${str(args.product)}.`);
  },
);

/** The browser's actions by tool name. */
const ACTIONS = new Map<string, SiteAction>([
  ['goto', goto],
  ['click', click],
  ['fill', fill],
  ['submit_post', submitPost],
  ['submit_comment', submitComment],
  ['send_message', sendMessage],
  ['create_issue', createIssue],
  ['write_review', writeReview],
  ['update_product', updateProduct],
]);

/** Applies one action to the state (mutating it) and says what the agent sees. */
export function applyAction(state: SiteState, sites: SiteKey[], tool: string, args: Record<string, unknown>): ActionOutcome {
  const action = ACTIONS.get(tool);
  return action ? action(state, args, sites) : fail(`unknown action ${tool}`);
}

function tookEffect(e: ToolEvent): boolean {
  return tookEffectOf(e);
}

/** The world after the given events (those that took effect), from the instance's start page. */
export function replaySite(sites: SiteKey[], startUrl: string, events: readonly ToolEvent[]): SiteState {
  const state = initialState(sites, startUrl);
  for (const e of events) if (tookEffect(e)) applyAction(state, sites, e.tool, e.arguments);
  return state;
}

export function pageAt(state: SiteState, url: string): SitePage | undefined {
  return state.pages.get(pageKey(url));
}
