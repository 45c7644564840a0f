/**
 * Log timestamps. Logs carry wall-clock times with no zone; querymask keeps them as seconds since
 * 1970-01-01 00:00:00 read as UTC, so a time written back is the time that was read. Parsing and formatting are
 * hand-written on character codes: they run once per line and Date parsing is several times slower.
 */

const DAY = 86400;

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(s: string, from: number, n: number): number {
  let v = 0;
  for (let i = from; i < from + n; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

function compose(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > DAYS_IN_MONTH[mo - 1]! || h < 0 || h > 23) return Number.NaN;
  if (mi < 0 || mi > 59 || s < 0 || s > 59) return Number.NaN;
  if (mo === 2 && d === 29 && !(y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0))) return Number.NaN;
  return daysFromCivil(y, mo, d) * DAY + h * 3600 + mi * 60 + s;
}

/**
 * The first and the last second a log can write (`0000-01-01 00:00:00` … `9999-12-31 23:59:59`): a time outside
 * (a number of seconds given in NDJSON) is refused on reading, so every release reads back.
 */
export const MIN_TIME = daysFromCivil(0, 1, 1) * DAY;
export const MAX_TIME = daysFromCivil(9999, 12, 31) * DAY + DAY - 1;

/** `YYYY-MM-DD HH:MM:SS` (AOL) → seconds, or NaN. A `T` separator is accepted too. */
export function parseAolTime(s: string): number {
  return parseAolTimeIn(s, 0, s.length);
}

/**
 * {@link parseAolTime} of `s[from, to)`, without cutting it out: the AOL reader parses the time where it stands in
 * its line (one string less per row).
 */
export function parseAolTimeIn(s: string, from: number, to: number): number {
  if (to - from !== 19) return Number.NaN;
  const sep = s.charCodeAt(from + 10);
  if (
    s.charCodeAt(from + 4) !== 45 || // -
    s.charCodeAt(from + 7) !== 45 ||
    (sep !== 32 && sep !== 84) || // space or T
    s.charCodeAt(from + 13) !== 58 || // :
    s.charCodeAt(from + 16) !== 58
  )
    return Number.NaN;
  return compose(
    digits(s, from, 4),
    digits(s, from + 5, 2),
    digits(s, from + 8, 2),
    digits(s, from + 11, 2),
    digits(s, from + 14, 2),
    digits(s, from + 17, 2),
  );
}

/** The date bytes (`YYYY-MM-DD`, as 4 + 2 + 2 bytes packed) whose day {@link parseAolTimeBytes} read last. */
let bytesDayKey0 = -1;
let bytesDayKey1 = -1;
/** Seconds of that day's midnight. */
let bytesDaySeconds = 0;

/** Two ASCII digits at `b[at]`, or -1. */
function twoDigits(b: Uint8Array, at: number): number {
  const x = b[at]! - 48;
  const y = b[at + 1]! - 48;
  return x < 0 || x > 9 || y < 0 || y > 9 ? -1 : x * 10 + y;
}

/**
 * {@link parseAolTime} of the 19 bytes `YYYY-MM-DD HH:MM:SS` at `b[at]` (a space between date and time; the
 * caller has checked the length), or NaN. For the raw-row reader: no string, and the date is converted only when
 * it differs from the previous call's (a time-ordered log changes day once a day).
 */
export function parseAolTimeBytes(b: Uint8Array, at: number): number {
  if (b[at + 4] !== 45 || b[at + 7] !== 45 || b[at + 10] !== 32 || b[at + 13] !== 58 || b[at + 16] !== 58)
    return Number.NaN;
  const key0 = b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  const key1 = b[at + 5]! | (b[at + 6]! << 8) | (b[at + 8]! << 16) | (b[at + 9]! << 24);
  if (key0 !== bytesDayKey0 || key1 !== bytesDayKey1) {
    const hi = twoDigits(b, at);
    const lo = twoDigits(b, at + 2);
    const day = compose(
      hi < 0 || lo < 0 ? -1 : hi * 100 + lo,
      twoDigits(b, at + 5),
      twoDigits(b, at + 8),
      0,
      0,
      0,
    );
    if (Number.isNaN(day)) return day;
    bytesDayKey0 = key0;
    bytesDayKey1 = key1;
    bytesDaySeconds = day;
  }
  const h = twoDigits(b, at + 11);
  const m = twoDigits(b, at + 14);
  const sec = twoDigits(b, at + 17);
  if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59) return Number.NaN;
  return bytesDaySeconds + h * 3600 + m * 60 + sec;
}

/** `YYMMDDHHMMSS` (Excite) → seconds, or NaN. Years 70–99 are 19xx, 00–69 are 20xx. */
export function parseExciteTime(s: string): number {
  if (s.length !== 12) return Number.NaN;
  const yy = digits(s, 0, 2);
  if (yy < 0) return Number.NaN;
  return compose(
    yy >= 70 ? 1900 + yy : 2000 + yy,
    digits(s, 2, 2),
    digits(s, 4, 2),
    digits(s, 6, 2),
    digits(s, 8, 2),
    digits(s, 10, 2),
  );
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

let lastDay = Number.NaN;
let lastDate = "";

/** The calendar date of a day number as `YYYY-MM-DD` (civil_from_days), memoized for runs of one day. */
function dateOf(days: number): string {
  if (days === lastDay) return lastDate;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  lastDay = days;
  lastDate = `${String(y).padStart(4, "0")}-${pad2(m)}-${pad2(d)}`;
  return lastDate;
}

function clock(t: number): string {
  const s = t - Math.floor(t / DAY) * DAY;
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor((s % 3600) / 60))}:${pad2(s % 60)}`;
}

let lastTime = Number.NaN;
let lastText = "";

/** seconds → `YYYY-MM-DD HH:MM:SS`, memoized for runs of one time (a released event's rows, a click burst). */
export function formatAolTime(t: number): string {
  if (t !== lastTime) {
    lastText = `${dateOf(Math.floor(t / DAY))} ${clock(t)}`;
    lastTime = t;
  }
  return lastText;
}

/** The date of {@link writeAolTime}'s last day, as bytes. */
const dateBytes = new Uint8Array(16);
let dateLength = 0;
let dateBytesDay = Number.NaN;

/**
 * {@link formatAolTime}'s text written into `to` at `at` (ASCII); returns the end. For the raw-row writer: no
 * string per time (a release time changes with nearly every event).
 */
export function writeAolTime(t: number, to: Uint8Array, at: number): number {
  const day = Math.floor(t / DAY);
  if (day !== dateBytesDay) {
    const date = dateOf(day);
    dateLength = date.length;
    for (let i = 0; i < dateLength; i++) dateBytes[i] = date.charCodeAt(i);
    dateBytesDay = day;
  }
  for (let i = 0; i < dateLength; i++) to[at++] = dateBytes[i]!;
  const s = t - day * DAY;
  if (s !== (s | 0)) return writeClock(s, to, at); // a fraction of a second: the codec's own digits
  // Two digits at a time from a table, in integer arithmetic (this runs once per released event).
  const h = (s / 3600) | 0;
  const m = ((s - h * 3600) / 60) | 0;
  const sec = s - h * 3600 - m * 60;
  to[at++] = 32;
  to[at++] = TWO_DIGITS[2 * h]!;
  to[at++] = TWO_DIGITS[2 * h + 1]!;
  to[at++] = 58;
  to[at++] = TWO_DIGITS[2 * m]!;
  to[at++] = TWO_DIGITS[2 * m + 1]!;
  to[at++] = 58;
  to[at++] = TWO_DIGITS[2 * sec]!;
  to[at++] = TWO_DIGITS[2 * sec + 1]!;
  return at;
}

/** "00" … "99" as ASCII bytes, two per number. */
const TWO_DIGITS = Uint8Array.from(
  { length: 200 },
  (_, i) => 48 + (i % 2 === 0 ? Math.floor(i / 20) : (i >> 1) % 10),
);

/** ` HH:MM:SS` of `s` seconds into a day, as {@link clock} writes it. */
function writeClock(s: number, to: Uint8Array, at: number): number {
  const text = ` ${clock(s)}`;
  for (let i = 0; i < text.length; i++) to[at++] = text.charCodeAt(i);
  return at;
}

/** seconds → `YYMMDDHHMMSS` (only 1970–2069 round-trip). */
export function formatExciteTime(t: number): string {
  const date = dateOf(Math.floor(t / DAY));
  return `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}${clock(t).replaceAll(":", "")}`;
}

/** Whether `t` can be written in the Excite layout. */
export function fitsExcite(t: number): boolean {
  return Number.isInteger(t) && t >= 0 && t < daysFromCivil(2070, 1, 1) * DAY;
}
