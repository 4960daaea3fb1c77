import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createAppContext } from './context.ts';
import { openDatabase } from './db/database.ts';

/** The published OpenAPI document, built from the route schemas of an app that never listens. */
export async function buildOpenApiDocument(): Promise<string> {
  const database = openDatabase('sqlite::memory:');
  const app = await buildApp(createAppContext({ config: { ...loadConfig({}), publicBaseUrl: null }, database }), {
    logger: false,
  });
  await app.ready();
  const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
  await app.close();
  await database.close();
  return document;
}
