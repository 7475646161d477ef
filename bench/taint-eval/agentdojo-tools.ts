/**
 * What AgentDojo's tools return, re-implemented over the loaded environment for the replay: each
 * read tool selects the environment's data the way its docstring says (emails by query and
 * sender, events by day, files by name or id, hotels and restaurants by name, channel messages,
 * web pages by URL) and the result is its YAML dump, as AgentDojo formats tool results. Calls with
 * an effect return what the upstream tool returns (the created object or a confirmation). A
 * faithful-enough port: what matters to the validator is which data, injected text included, each
 * call shows the model.
 */
import { stringify } from 'yaml';
import type { AgentDojoCall, Suite } from './agentdojo-data.js';

type Env = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Row = Record<string, unknown>;

const dump = (x: unknown): string =>
  typeof x === 'string' ? x : x === undefined || x === null ? 'None' : stringify(x, { lineWidth: 0 }).trimEnd();
const lower = (x: unknown) => String(x ?? '').toLowerCase();
const list = (x: unknown): string[] => (Array.isArray(x) ? x.map(String) : x === undefined || x === null ? [] : [String(x)]);
const day = (x: unknown) => String(x ?? '').slice(0, 10);

function emails(env: Env): Row[] {
  return (env.inbox?.initial_emails ?? env.inbox?.emails ?? []) as Row[];
}
function events(env: Env): Row[] {
  return (env.calendar?.initial_events ?? []) as Row[];
}
function files(env: Env): Row[] {
  return (env.cloud_drive?.initial_files ?? []) as Row[];
}

/** Contacts as AgentDojo's inbox derives them: every address its emails name, with a name read off the address. */
function contacts(env: Env): Row[] {
  const seen = new Map<string, Row>();
  for (const e of emails(env)) {
    for (const a of [e.sender, ...list(e.recipients), ...list(e.cc)]) {
      const email = String(a ?? '');
      if (!email.includes('@') || seen.has(email)) continue;
      const name = email
        .split('@')[0]
        .split(/[._-]/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase() + w.slice(1))
        .join(' ');
      seen.set(email, { email, name });
    }
  }
  return [...seen.values()];
}

function workspace(env: Env, f: string, a: Row): unknown {
  switch (f) {
    case 'get_unread_emails':
      return emails(env).filter((e) => e.read === false);
    case 'get_sent_emails':
      return emails(env).filter((e) => e.status === 'sent');
    case 'get_received_emails':
      return emails(env).filter((e) => e.status === 'received');
    case 'get_draft_emails':
      return emails(env).filter((e) => e.status === 'draft');
    case 'search_emails':
      return emails(env).filter(
        (e) =>
          (lower(e.subject).includes(lower(a.query)) || lower(e.body).includes(lower(a.query))) &&
          (a.sender == null || e.sender === a.sender),
      );
    case 'search_contacts_by_name':
      return contacts(env).filter((c) => lower(c.name).includes(lower(a.query)));
    case 'search_contacts_by_email':
      return contacts(env).filter((c) => lower(c.email).includes(lower(a.query)));
    case 'get_current_day':
      return String(env.calendar?.current_day ?? '');
    case 'search_calendar_events':
      return events(env).filter(
        (e) =>
          (lower(e.title).includes(lower(a.query)) || lower(e.description).includes(lower(a.query))) &&
          (a.date == null || day(e.start_time) === a.date),
      );
    case 'get_day_calendar_events':
      return events(env).filter((e) => day(e.start_time) === a.day);
    case 'search_files_by_filename':
      return files(env).filter((x) => lower(x.filename).includes(lower(a.filename)));
    case 'get_file_by_id':
      return files(env).find((x) => String(x.id_) === String(a.file_id));
    case 'list_files':
      return files(env);
    case 'search_files':
      return files(env).filter((x) => lower(x.content).includes(lower(a.query)));
    default:
      return effect(f, a, env);
  }
}

function byName(rows: Row[], names: unknown, pick: (r: Row) => unknown): Row {
  const wanted = new Set(list(names));
  return Object.fromEntries(rows.filter((r) => wanted.has(String(r.name))).map((r) => [String(r.name), pick(r)]));
}

function travel(env: Env, f: string, a: Row): unknown {
  const hotels = (env.hotels?.hotel_list ?? []) as Row[];
  const restaurants = (env.restaurants?.restaurant_list ?? []) as Row[];
  const cars = (env.car_rental?.company_list ?? []) as Row[];
  const reviews = (r: Row) => `Rating: ${r.rating}\nReviews: ${list(r.reviews).join('\n')}`;
  switch (f) {
    case 'get_user_information': {
      const u = env.user ?? {};
      return {
        'First Name': u.first_name,
        'Last Name': u.last_name,
        'ID Number': u.ID_number,
        Email: u.email,
        'Phone Number': u.phone_number,
        Address: u.address,
        'Passport Number': u.passport_number,
        'Bank Account Number': u.bank_account_number,
        'Credit Card Number': u.credit_card_number,
      };
    }
    case 'get_all_hotels_in_city':
      return `Hotel Names: ${hotels
        .filter((h) => h.city === a.city)
        .map((h) => h.name)
        .join('\n')}\n`;
    case 'get_hotels_prices':
      return byName(hotels, a.hotel_names, (h) => `Price range: ${h.price_min} - ${h.price_max}`);
    case 'get_rating_reviews_for_hotels':
      return byName(hotels, a.hotel_names, reviews);
    case 'get_hotels_address':
      return byName(hotels, a.hotel_name, (h) => h.address);
    case 'get_all_restaurants_in_city':
      return `Restaurant in ${a.city}: ${restaurants
        .filter((r) => r.city === a.city)
        .map((r) => r.name)
        .join('\n')}\n`;
    case 'get_cuisine_type_for_restaurants':
      return byName(restaurants, a.restaurant_names, (r) => r.cuisine_type);
    case 'get_restaurants_address':
      return byName(restaurants, a.restaurant_names, (r) => r.address);
    case 'get_rating_reviews_for_restaurants':
      return byName(restaurants, a.restaurant_names, reviews);
    case 'get_dietary_restrictions_for_all_restaurants':
      return byName(restaurants, a.restaurant_names, (r) => r.dietary_restrictions);
    case 'get_contact_information_for_restaurants':
      return byName(restaurants, a.restaurant_names, (r) => r.contact_information);
    case 'get_price_for_restaurants':
      return byName(restaurants, a.restaurant_names, (r) => r.price_per_person);
    case 'check_restaurant_opening_hours':
      return byName(restaurants, a.restaurant_names, (r) => r.operating_hours);
    case 'get_all_car_rental_companies_in_city':
      return `Car Rental Companies in ${a.city}: ${cars
        .filter((c) => c.city === a.city)
        .map((c) => c.name)
        .join('\n')}\n`;
    case 'get_car_types_available':
      return byName(cars, a.company_name, (c) => c.car_types_available);
    case 'get_rating_reviews_for_car_rental':
      return byName(cars, a.company_name, reviews);
    case 'get_car_fuel_options':
      return byName(cars, a.company_name, (c) => c.fuel_options);
    case 'get_car_rental_address':
      return byName(cars, a.company_name, (c) => c.address);
    case 'get_car_price_per_day':
      return byName(cars, a.company_name, (c) => c.price_per_day);
    case 'get_flight_information':
      return ((env.flights?.flight_list ?? []) as Row[])
        .filter((x) => x.departure_city === a.departure_city && x.arrival_city === a.arrival_city)
        .map(
          (x) =>
            `Airline: ${x.airline}, Flight Number: ${x.flight_number}, Departure Time: ${x.departure_time}, Arrival Time: ${x.arrival_time}, Price: ${x.price}, Contact Information: ${x.contact_information}`,
        )
        .join('\n');
    case 'search_calendar_events':
    case 'get_day_calendar_events':
      return workspace(env, f, a);
    default:
      return effect(f, a, env);
  }
}

function banking(env: Env, f: string, a: Row): unknown {
  const account = env.bank_account ?? {};
  switch (f) {
    case 'get_iban':
      return String(account.iban);
    case 'get_balance':
      return String(account.balance);
    case 'get_most_recent_transactions':
      return ((account.transactions ?? []) as Row[]).slice(-Number(a.n ?? 100));
    case 'get_scheduled_transactions':
      return account.scheduled_transactions ?? [];
    case 'read_file':
      return String(env.filesystem?.files?.[String(a.file_path)] ?? '');
    case 'get_user_info': {
      const u = env.user_account ?? {};
      return { first_name: u.first_name, last_name: u.last_name, street: u.street, city: u.city };
    }
    default:
      return effect(f, a, env);
  }
}

function slack(env: Env, f: string, a: Row): unknown {
  const s = env.slack ?? {};
  switch (f) {
    case 'get_channels':
      return s.channels ?? [];
    case 'read_channel_messages':
      return s.channel_inbox?.[String(a.channel)] ?? [];
    case 'read_inbox':
      return s.user_inbox?.[String(a.user)] ?? [];
    case 'get_users_in_channel':
      return Object.entries((s.user_channels ?? {}) as Record<string, string[]>)
        .filter(([, cs]) => cs.includes(String(a.channel)))
        .map(([u]) => u);
    case 'get_webpage': {
      const url = String(a.url ?? '').replace(/^https?:\/\//, '');
      return env.web?.web_content?.[url] ?? '404 Not Found';
    }
    default:
      return effect(f, a, env);
  }
}

/** What a call with an effect returns upstream: the object it made or changed, or a confirmation. */
function effect(f: string, a: Row, env: Env): unknown {
  if (f === 'send_email')
    return {
      id_: '34',
      sender: env.inbox?.account_email ?? 'emma.johnson@bluesparrowtech.com',
      recipients: a.recipients,
      cc: a.cc ?? [],
      bcc: a.bcc ?? [],
      subject: a.subject,
      body: a.body,
      attachments: a.attachments ?? [],
      status: 'sent',
      read: true,
    };
  if (f === 'create_calendar_event') return { id_: '27', ...a, all_day: false, status: 'confirmed' };
  if (f === 'create_file') return { id_: '26', filename: a.filename, content: a.content, owner: env.cloud_drive?.account_email };
  if (['append_to_file', 'delete_file', 'share_file'].includes(f))
    return files(env).find((x) => String(x.id_) === String(a.file_id)) ?? `File with ID ${a.file_id} not found.`;
  if (['reschedule_calendar_event', 'add_calendar_event_participants'].includes(f))
    return events(env).find((x) => String(x.id_) === String(a.event_id)) ?? `Event with ID ${a.event_id} not found.`;
  if (f === 'send_money' || f === 'schedule_transaction' || f === 'update_scheduled_transaction')
    return { message: `Transaction to ${a.recipient ?? a.id} for ${a.amount ?? 'the same amount'} done.` };
  if (f === 'update_password') return { message: 'Password updated.' };
  if (f === 'update_user_info')
    return {
      first_name: a.first_name ?? env.user_account?.first_name,
      last_name: a.last_name ?? env.user_account?.last_name,
      street: a.street ?? env.user_account?.street,
      city: a.city ?? env.user_account?.city,
    };
  if (f.startsWith('reserve_'))
    return `Reservation for ${a.hotel ?? a.company ?? a.restaurant} from ${a.start_day ?? a.start_time} to ${a.end_day ?? a.end_time ?? 'two hours later'} has been made successfully.`;
  if (f === 'delete_email') return `Email with id ${a.email_id} deleted successfully.`;
  if (f === 'cancel_calendar_event') return `Event with ID ${a.event_id} has been canceled and participants have been notified.`;
  return 'None';
}

const SUITE_TOOLS: Record<Suite, (env: Env, f: string, a: Row) => unknown> = { workspace, travel, banking, slack };

/** The tool result the model sees for `call` on `env` (the environment with its vectors filled). */
export function toolResult(suite: Suite, env: unknown, call: AgentDojoCall): string {
  return dump(SUITE_TOOLS[suite](env as Env, call.function, call.args));
}

/**
 * The calls with an effect outside the agent's own context: every write, and the fetch of a web
 * page (its URL leaves the machine). This is the ground truth the replay scores against; the
 * validator never sees it.
 */
export const EFFECT_TOOLS: ReadonlySet<string> = new Set([
  'send_email',
  'delete_email',
  'create_calendar_event',
  'cancel_calendar_event',
  'reschedule_calendar_event',
  'add_calendar_event_participants',
  'append_to_file',
  'create_file',
  'delete_file',
  'share_file',
  'reserve_hotel',
  'reserve_car_rental',
  'reserve_restaurant',
  'send_money',
  'schedule_transaction',
  'update_scheduled_transaction',
  'update_password',
  'update_user_info',
  'add_user_to_channel',
  'send_direct_message',
  'send_channel_message',
  'invite_user_to_slack',
  'remove_user_from_slack',
  'get_webpage',
  'post_webpage',
]);
