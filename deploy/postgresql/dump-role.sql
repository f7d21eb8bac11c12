-- The open-data dump's own PostgreSQL role (docs/PRIVACY.md, "With DATABASE_URL"): it reads the overlay
-- schema, what the dump publishes, and nothing of the accounts schema (accounts, sessions, passkeys,
-- partners, OAuth, billing, the server key). Made once by the operator:
--   psql "$DATABASE_URL" -c "CREATE ROLE toilet_dump LOGIN PASSWORD '…'"
--   psql "$DATABASE_URL" -f deploy/postgresql/dump-role.sql
-- as the service's role (the owner of the schemas, which made them at its first start); then the dump
-- runs with DATABASE_URL naming toilet_dump (deploy/systemd/toilet-finder-refresh.service's environment).
-- The dump never lays out the schema itself (this role may not): after an upgrade, the new release's
-- server starts (and migrates) before the next dump runs, as the refresh timer's order has it anyway.
-- test/backup/postgres-roles.test.ts runs this file and checks both sides.
GRANT USAGE ON SCHEMA overlay TO toilet_dump;
GRANT SELECT ON ALL TABLES IN SCHEMA overlay TO toilet_dump;
-- the tables a later release's steps add to overlay (made by the service's role): readable as well
ALTER DEFAULT PRIVILEGES IN SCHEMA overlay GRANT SELECT ON TABLES TO toilet_dump;
-- nothing on accounts: the schema's owner alone uses it (no grant to PUBLIC either)
REVOKE ALL ON SCHEMA accounts FROM PUBLIC;
REVOKE ALL ON SCHEMA accounts FROM toilet_dump;
REVOKE ALL ON ALL TABLES IN SCHEMA accounts FROM toilet_dump;
