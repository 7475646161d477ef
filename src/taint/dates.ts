/**
 * Days a request names, in the words of the languages read (docs/taint-policy.md, "Reads the
 * request points to"): "dinsdag 18 november", "the 18th of November", "18. marraskuuta", "18/11".
 * A read called for that day (`date: "2025-11-18"`) is one the request points to, as a read called
 * with a code the request names is.
 */
import { fold } from './spanish.js';

/**
 * Each month's names, folded, as dates write them: the name and its abbreviation, and the case a
 * date puts it in (Finnish partitive "marraskuuta", Polish and Czech genitive "listopada", "května").
 */
const MONTH_NAMES: readonly string[] = [
  'january jan januari januar janvier enero janeiro gennaio janner tammikuuta tammikuu stycznia styczen ledna leden ocak',
  'february feb februari februar fevrier febrero fevereiro febbraio helmikuuta helmikuu lutego luty unora unor subat',
  'march mar maart marz mars marzo marco marts maaliskuuta maaliskuu marca marzec brezna brezen mart',
  'april apr avril abril aprile huhtikuuta huhtikuu kwietnia kwiecien dubna duben nisan',
  'may mei mai mayo maio maggio maj toukokuuta toukokuu maja kvetna kveten mayis',
  'june jun juni juin junio junho giugno kesakuuta kesakuu czerwca czerwiec cervna cerven haziran',
  'july jul juli juillet julio julho luglio heinakuuta heinakuu lipca lipiec cervence cervenec temmuz',
  'august aug augustus aout agosto augusti elokuuta elokuu sierpnia sierpien srpna srpen agustos',
  'september sep sept septembre septiembre setembro settembre syyskuuta syyskuu wrzesnia wrzesien zari eylul',
  'october oct okt oktober octobre octubre outubro ottobre lokakuuta lokakuu pazdziernika pazdziernik rijna rijen ekim',
  'november nov novembre noviembre novembro marraskuuta marraskuu listopada listopad kasim',
  'december dec dezember decembre diciembre dezembro dicembre desember joulukuuta joulukuu grudnia grudzien prosince prosinec aralik',
];
const MONTH_OF: ReadonlyMap<string, number> = new Map(MONTH_NAMES.flatMap((names, i) => names.split(' ').map((n) => [n, i + 1] as const)));

/** A day of the month as written beside a month's name: "18", "18th", "1st", "18e", "18º". */
const DAY = /^(\d{1,2})(?:st|nd|rd|th|e|er|o|º)?$/;
/** A day and a month in figures: "18/11", "18.11.", "18-11-2025", or the other way round ("11/18"). */
const NUMERIC = /(?<![\d./-])(\d{1,2})[./-](\d{1,2})(?:[./-](?:\d{4}|\d{2}))?(?![\d/-])/g;
/** A value that is a day (an ISO date, a date-time): its month and day. */
const ISO_DAY = /^\d{4}-(\d{2})-(\d{2})(?:$|[T ]\d)/;

/** Whether `value` is a day the request names, in words or in figures (see the file's comment). */
export function dateNamedIn(request: string, value: string): boolean {
  const iso = ISO_DAY.exec(value.trim());
  if (!iso) return false;
  const month = Number(iso[1]);
  const day = Number(iso[2]);
  const text = request.slice(0, 4_000);
  for (const m of text.matchAll(NUMERIC)) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if ((a === day && b === month) || (a === month && b === day)) return true;
  }
  const ws = fold(text.replace(/ı/g, 'i')).split(/[^\p{L}\p{N}º]+/u);
  return ws.some((w, i) => {
    if (MONTH_OF.get(w) !== month) return false;
    const dayAt = (x: string | undefined) => Number(DAY.exec(x ?? '')?.[1] ?? NaN) === day;
    // "18 november", "November 18th", "the 18th of May", "18 de noviembre".
    return dayAt(ws[i - 1]) || dayAt(ws[i + 1]) || (/^(?:of|de|di|du|del)$/.test(ws[i - 1] ?? '') && dayAt(ws[i - 2]));
  });
}
