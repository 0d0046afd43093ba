import Fastify from 'fastify';
import { Pool } from 'pg';

/**
 * The baseline: a bare Fastify server answering the same JSON as GET /api/v1/me (`/bare`), and a
 * route that runs one PostgreSQL query (`/bare-db`), measured in the same run as fundgate.
 */
const port = Number(process.env.PORT ?? 3902);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const body = JSON.parse(process.env.BARE_BODY ?? '{"ok":true}');
const app = Fastify({ logger: false });
app.get('/bare', async () => body);
app.get('/bare-db', async () => {
  const { rows } = await pool.query('SELECT id, slug, name FROM funds ORDER BY slug LIMIT 1');
  return { fund: rows[0] ?? null, ...body };
});
void app.listen({ port, host: '127.0.0.1' }).then(() => process.stdout.write('ready\n'));
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0)),
);
