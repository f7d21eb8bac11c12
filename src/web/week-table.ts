// Turns the common shapes of an OSM opening_hours value (`24/7`; `Mo-Fr 08:00-18:00; Sa 09:00-12:00`;
// `Su off`) into one line per weekday for the toilet page. Anything richer (holidays, months, sun times,
// comments, fallback rules) gives null, and the page shows the value as recorded beside "open now", which
// the server evaluates exactly (src/hours).
const DAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const RANGE = /^([01]\d|2[0-4]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

/** Per weekday (Monday first): 'closed', or a list of "HH:MM–HH:MM" spans; null when the value is too rich. */
export function weekTable(value: string): (string[] | 'closed')[] | null {
  const week: (string[] | 'closed')[] = DAYS.map(() => 'closed');
  const trimmed = value.trim();
  if (trimmed === '24/7') return DAYS.map(() => ['00:00–24:00']);
  if (trimmed === '' || trimmed.includes('||') || trimmed.includes('"')) return null;
  for (const rule of trimmed.split(';').map((r) => r.trim()).filter((r) => r !== '')) {
    const match = /^((?:[A-Z][a-z](?:-[A-Z][a-z])?)(?:,(?:[A-Z][a-z](?:-[A-Z][a-z])?))*)?\s*(.*)$/.exec(rule);
    if (match === null) return null;
    const days = match[1] === undefined ? DAYS.map((_, i) => i) : daysOf(match[1]);
    if (days === null) return null;
    const times = match[2].trim();
    let spans: string[] | 'closed';
    if (times === 'off' || times === 'closed') spans = 'closed';
    else if (times === '24/7' || (times === '' && match[1] !== undefined)) spans = ['00:00–24:00'];
    else {
      const parts = times.split(',').map((t) => t.trim());
      if (!parts.every((t) => RANGE.test(t))) return null;
      spans = parts.map((t) => t.replace('-', '–'));
    }
    for (const day of days) week[day] = spans;
  }
  return week;
}

function daysOf(selector: string): number[] | null {
  const days: number[] = [];
  for (const part of selector.split(',')) {
    const [from, to] = part.split('-').map((d) => DAYS.indexOf(d));
    if (from < 0 || (to !== undefined && to < 0)) return null;
    if (to === undefined) days.push(from);
    else for (let day = from; ; day = (day + 1) % 7) {
      days.push(day);
      if (day === to) break;
    }
  }
  return days;
}
