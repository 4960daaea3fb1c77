// Creates or drops a PostgreSQL database: `node scripts/pg-database.mjs create|drop NAME [ADMIN_URL]`.
// CI uses it so each run tests against a fresh database without needing the psql client.
import pg from 'pg';

const [action, name, adminUrl = 'postgres://postgres@127.0.0.1:5432/postgres'] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !/^[a-z_][a-z0-9_]*$/.test(name ?? '')) {
  console.error('usage: pg-database.mjs create|drop NAME [ADMIN_URL]');
  process.exit(2);
}
const client = new pg.Client({ connectionString: adminUrl });
try {
  await client.connect();
  await client.query(action === 'create' ? `CREATE DATABASE ${name}` : `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
} catch (error) {
  console.error(`${action} database ${name}: ${error.message}`);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
}
