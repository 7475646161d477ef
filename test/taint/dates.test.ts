/**
 * Days a request names (src/taint/dates.ts): a read called for a day the request writes in words
 * or in figures, in any language read, is one the request points to. Classes: a day and a month's
 * name either way round, with an ordinal or "of"/"de"; the cases Finnish, Polish and Czech put a
 * month in; day and month in figures either way round; and what names no day: another day, a
 * code or a phone number with the same digits, a month's name with no day beside it.
 */
import { describe, expect, it } from '@jest/globals';
import { dateNamedIn } from '../../src/taint/dates.js';

describe('a day the request names', () => {
  it.each([
    ['Can she come in on Thursday 4 December instead?', '2025-12-04'],
    ['the delivery of December 4th', '2025-12-04T08:00:00Z'],
    ['the 4th of December', '2025-12-04'],
    ['zijn afspraak van donderdag 4 december', '2025-12-04'],
    ['su cita del 4 de diciembre', '2025-12-04'],
    ['le rendez-vous du 4 décembre', '2025-12-04'],
    ['der Termin am 4. Dezember', '2025-12-04'],
    ['varaus 4. joulukuuta', '2025-12-04'],
    ['wizyta 4 grudnia', '2025-12-04'],
    ['schůzka 4. prosince', '2025-12-04'],
    ['randevu 4 Aralık', '2025-12-04'],
    ['the slot on 04/12', '2025-12-04'],
    ['the slot on 12/4', '2025-12-04'],
    ['Termin 4.12.2025', '2025-12-04'],
  ])('finds the day in %j', (request, value) => {
    expect(dateNamedIn(request, value)).toBe(true);
  });

  it.each([
    ['Can she come in on Thursday 4 December instead?', '2025-12-05'],
    ['claim CL-2025-1204', '2025-12-04'],
    ['call me on 07700 900412', '2025-04-12'],
    ['everything booked in December', '2025-12-04'],
    ['4 December', 'December 4'],
    ['4 December', '2025-13-45x'],
  ])('finds none in %j for %s', (request, value) => {
    expect(dateNamedIn(request, value)).toBe(false);
  });

  it('reads a hostile request to its first 4,000 characters, once', () => {
    expect(dateNamedIn(`${'18 '.repeat(500_000)}November`, '2025-11-18')).toBe(false);
    expect(dateNamedIn(`18/11 ${'18/'.repeat(500_000)}`, '2025-11-18')).toBe(true);
  });
});
