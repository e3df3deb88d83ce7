#!/bin/sh
# Least-privilege roles (docs/operations.md): `gatehouse_owner` owns the six schemas and is what
# the migration step logs in as; each service logs in as `gatehouse_<schema>`, which may read and
# write the tables of its own schema and nothing else: no DDL, no other schema, no new schemas.
# Runs once on an empty cluster (the postgres image's /docker-entrypoint-initdb.d) with the
# passwords in GATEHOUSE_OWNER_PASSWORD and GATEHOUSE_<SCHEMA>_PASSWORD; for a managed
# PostgreSQL run it as its administrator (PGHOST, PGUSER... and POSTGRES_DB set). It can be run
# again: it creates what is missing and (re)grants, so it also upgrades a database whose schemas
# the service roles used to own.
set -eu
db="${POSTGRES_DB:-gatehouse}"
sql_literal() { printf "'%s'" "$(printf %s "$1" | sed "s/'/''/g")"; }
role() {
  echo "DO \$\$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '$1') THEN CREATE ROLE $1 LOGIN; END IF; END \$\$;"
  echo "ALTER ROLE $1 LOGIN PASSWORD $(sql_literal "$2");"
}
{
  echo "REVOKE CREATE ON DATABASE \"$db\" FROM PUBLIC;"
  echo "REVOKE ALL ON SCHEMA public FROM PUBLIC;"
  role gatehouse_owner "${GATEHOUSE_OWNER_PASSWORD}"
  echo "GRANT CONNECT ON DATABASE \"$db\" TO gatehouse_owner;"
  for schema in identity admin access billing webhooks_out branding; do
    var="GATEHOUSE_$(echo "$schema" | tr a-z A-Z)_PASSWORD"
    password=$(eval "printf %s \"\${$var}\"")
    service="gatehouse_$schema"
    role "$service" "$password"
    echo "GRANT CONNECT ON DATABASE \"$db\" TO $service;"
    echo "CREATE SCHEMA IF NOT EXISTS $schema AUTHORIZATION gatehouse_owner;"
    # A schema (and its tables) a service role owned before this layout moves to the owner.
    echo "ALTER SCHEMA $schema OWNER TO gatehouse_owner;"
    echo "DO \$\$ DECLARE t record; BEGIN FOR t IN SELECT c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = '$schema'::regnamespace AND c.relkind IN ('r','p','S','v','m') AND pg_get_userbyid(c.relowner) <> 'gatehouse_owner' LOOP EXECUTE format(CASE WHEN t.relkind = 'S' THEN 'ALTER SEQUENCE %I.%I OWNER TO gatehouse_owner' ELSE 'ALTER TABLE %I.%I OWNER TO gatehouse_owner' END, '$schema', t.relname); END LOOP; END \$\$;"
    echo "REVOKE ALL ON SCHEMA $schema FROM PUBLIC;"
    echo "GRANT USAGE ON SCHEMA $schema TO $service;"
    echo "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA $schema TO $service;"
    echo "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA $schema TO $service;"
    # Tables and sequences the migrations create later get the same grants.
    echo "ALTER DEFAULT PRIVILEGES FOR ROLE gatehouse_owner IN SCHEMA $schema GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO $service;"
    echo "ALTER DEFAULT PRIVILEGES FOR ROLE gatehouse_owner IN SCHEMA $schema GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO $service;"
  done
} | psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username "${POSTGRES_USER:-postgres}" --dbname "$db"
