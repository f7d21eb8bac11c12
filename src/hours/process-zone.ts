// The opening_hours library reads every Date through local-time getters (getHours, getDay, setDate …) of
// the process zone. We evaluate on "wall-clock" Dates whose UTC fields are the toilet's local time; the
// library's local getters return exactly those fields only when the process zone is UTC, which has no DST
// gaps or repeats to distort its arithmetic. Node applies a runtime change of process.env.TZ at once, in
// the main thread; a worker thread cannot change it (it inherits the zone the main thread had at start).

/** Makes the process evaluate local time as UTC. Affects every Date local-time method in the process. */
export function requireUtcProcessZone(): void {
  if (localTimeIsUtc()) return;
  process.env.TZ = 'UTC';
  if (!localTimeIsUtc()) {
    throw new Error(
      'opening hours need the process time zone to be UTC and this thread cannot set it: ' +
        'start Node with TZ=UTC, or import src/hours in the main thread before starting workers',
    );
  }
}

/** Local time equals UTC in winter and in summer. */
function localTimeIsUtc(): boolean {
  return new Date(2000, 0, 1).getTimezoneOffset() === 0 && new Date(2000, 6, 1).getTimezoneOffset() === 0;
}
