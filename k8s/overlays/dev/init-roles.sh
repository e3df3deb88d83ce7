#!/bin/sh
# One login role per service, owning only its own schema; nobody else may create schemas.
# Runs once on an empty cluster (the postgres image's /docker-entrypoint-initdb.d) with the
# passwords in GATEHOUSE_<SCHEMA>_PASSWORD; for a managed PostgreSQL run the same statements
# as its administrator (docs/operations.md).
set -eu
db="${POSTGRES_DB:-gatehouse}"
{
  echo "REVOKE CREATE ON DATABASE \"$db\" FROM PUBLIC;"
  echo "REVOKE ALL ON SCHEMA public FROM PUBLIC;"
  for schema in identity admin access billing webhooks_out branding; do
    var="GATEHOUSE_$(echo "$schema" | tr a-z A-Z)_PASSWORD"
    password=$(eval "printf %s \"\${$var}\"")
    echo "CREATE ROLE gatehouse_$schema LOGIN PASSWORD '$password';"
    echo "GRANT CONNECT ON DATABASE \"$db\" TO gatehouse_$schema;"
    echo "CREATE SCHEMA $schema AUTHORIZATION gatehouse_$schema;"
  done
} | psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname "$db"
