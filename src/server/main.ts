/** Starts the server: configuration, database, chain ids, listening, graceful shutdown. */
import { buildApp } from './app';
import { ChainIdMismatch, checkChainIds, testNetworksOf } from './chain';
import { ConfigError, isDemoMode, loadConfig } from './platform/config/config';
import { openDatabase, prepareDatabase } from './platform/db/database';
import { listenUrl } from './platform/config/listen-address';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = openDatabase(config.database);
  await prepareDatabase(database, Date.now());
  const app = await buildApp(config, { db: database.db, jobs: true });
  // Before any job starts: a node of another chain, or a test network with real money, stops it.
  try {
    await checkChainIds(app.chain, testNetworksOf(config), app.log);
  } catch (error) {
    if (error instanceof ChainIdMismatch) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  app.log.info(
    {
      database: config.database.kind === 'sqlite' ? config.database.path : 'postgresql',
      staticDir: config.staticDir,
      operators: config.operatorIds.length,
    },
    'configuration loaded',
  );

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    // The database closes after the app, whose onClose hooks still write the last customers seen.
    app
      .close()
      .then(() => database.db.destroy())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const url = listenUrl(config.host, config.port);
  if (isDemoMode(config)) {
    app.log.warn(
      `Demo: open ${url} as a customer and ${url}/console as the operator` +
        (config.demoAutopilot ? ' (the autopilot answers within seconds)' : '') +
        '; no BOT_TOKEN, so nothing reaches Telegram' +
        (config.host === '127.0.0.1'
          ? ', and only this machine can connect (set HOST to share it)'
          : ''),
    );
  } else {
    app.log.info(`Serving ${url}`);
  }
}

main().catch((error: unknown) => {
  console.error('The server could not start:', error);
  process.exit(1);
});
