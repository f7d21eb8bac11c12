// The overlay's PostgreSQL layout (schema `overlay`, src/storage/README.md): the tables of the SQLite
// layout (migrations.ts) in PostgreSQL's types, made fresh rather than through the SQLite history. Only the
// SQL text, so that the contributions' slice can declare it and a read thread may load it with the slices.
import type { PostgresStep } from '../storage/postgres.js';

/** The channel a committed change is announced on (its sequence number as the payload). */
export const CHANGES_CHANNEL = 'overlay_changes';

/** The overlay schema's step 1: contributions, moderation, the OSM note outbox, used tokens and the change log. */
export const OVERLAY_STEP: PostgresStep = {
  version: 1,
  name: 'contributions, moderation, OSM notes and the change log',
  sql: `
CREATE TABLE confirmations (
  toilet_id text NOT NULL,
  at        bigint NOT NULL                 -- epoch ms, as every "at" here
);
CREATE INDEX confirmations_by_toilet ON confirmations (toilet_id, at);

-- person: 'd:' + keyed hash of the device id, or 'a:' + account id; one row per person and toilet
CREATE TABLE ratings (
  toilet_id text NOT NULL,
  person    text NOT NULL,
  rating    integer NOT NULL,
  at        bigint NOT NULL,
  PRIMARY KEY (toilet_id, person)
);
CREATE INDEX ratings_by_person ON ratings (person);

CREATE TABLE votes (
  toilet_id text NOT NULL,
  attribute text NOT NULL,
  person    text NOT NULL,
  value     text NOT NULL,
  at        bigint NOT NULL,
  PRIMARY KEY (toilet_id, attribute, person)
);
CREATE INDEX votes_by_person ON votes (person);

CREATE TABLE locks (
  toilet_id text NOT NULL,
  attribute text NOT NULL,
  value     text NOT NULL,
  at        bigint NOT NULL,
  PRIMARY KEY (toilet_id, attribute)
);

CREATE TABLE reports (
  id         bigserial PRIMARY KEY,
  toilet_id  text NOT NULL,
  kind       text NOT NULL,
  note       text,
  at         bigint NOT NULL,
  status     text NOT NULL DEFAULT 'open',  -- open | approved | rejected
  decided_at bigint
);
CREATE INDEX reports_by_status ON reports (status, toilet_id);

CREATE TABLE submissions (
  id             bigserial PRIMARY KEY,
  lat            double precision NOT NULL,
  lon            double precision NOT NULL,
  name           text,
  access         text,
  fee            text,
  opening_hours  text,
  wheelchair     text,
  changing_table text,
  note           text,
  at             bigint NOT NULL,
  status         text NOT NULL DEFAULT 'pending', -- pending | approved | rejected
  decided_at     bigint
);

-- approved submissions (ids c_<submission id>); ordinal keeps the order they were approved in
CREATE TABLE community_toilets (
  ordinal        bigserial UNIQUE,
  id             text PRIMARY KEY,
  lat            double precision NOT NULL,
  lon            double precision NOT NULL,
  name           text,
  access         text NOT NULL,
  access_rule    text NOT NULL,
  fee_required   smallint,
  opening_hours  text,
  wheelchair     text NOT NULL,
  changing_table text NOT NULL,
  time_zone      text NOT NULL,
  country        text,
  approved_at    bigint NOT NULL            -- epoch seconds
);

-- per-address-per-day rules: address is a keyed hash with that day's key; both go when the day ends
CREATE TABLE address_days (
  rule      text NOT NULL,
  toilet_id text NOT NULL,
  day       text NOT NULL,
  address   text NOT NULL,
  PRIMARY KEY (rule, toilet_id, day, address)
);
CREATE TABLE day_keys (
  day text PRIMARY KEY,
  key bytea NOT NULL
);

CREATE TABLE used_tokens (
  token      text PRIMARY KEY,
  expires_at bigint NOT NULL
);

CREATE TABLE moderation_log (
  id      bigserial PRIMARY KEY,
  at      bigint NOT NULL,
  action  text NOT NULL,
  target  text NOT NULL,
  reason  text NOT NULL,
  details text                              -- JSON
);

CREATE TABLE osm_notes (
  id         bigserial PRIMARY KEY,
  report_id  bigint NOT NULL,
  lat        double precision NOT NULL,
  lon        double precision NOT NULL,
  text       text NOT NULL,
  queued_at  bigint NOT NULL,
  sent_at    bigint,
  note_id    bigint,
  attempts   integer NOT NULL DEFAULT 0,
  last_error text
);

-- every change a read can see, numbered in commit order (a writer holds the change lock until it commits);
-- toilet_id NULL: the set of community toilets changed
CREATE TABLE changes (
  seq       bigserial PRIMARY KEY,
  toilet_id text,
  at        bigint NOT NULL
);
CREATE INDEX changes_by_time ON changes (at);
CREATE FUNCTION announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${CHANGES_CHANNEL}', NEW.seq::text);
  RETURN NULL;
END $$;
CREATE TRIGGER changes_announced AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION announce_change();

CREATE TABLE readiness_probe (
  id        smallint PRIMARY KEY CHECK (id = 1),
  probed_at bigint NOT NULL
);`,
};
