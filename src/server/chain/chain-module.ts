/**
 * The chain module: the readers as `app.chain` (built once: a reader keeps the decimals it read),
 * their metrics, the chain checker where a network is read from a node, and a seller's hash route.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Database } from '../platform/db/schema';
import { compressedRoutes } from '../platform/http/compression';
import { runWhileUp, type ModuleOptions } from '../platform/jobs/run-jobs';
import type { DatabaseGauge } from '../platform/metrics/metrics';
import './chain-context';
import {
  chainCheckLag,
  chainLookupBacklog,
  checksAnyChain,
  createChainChecker,
} from './chain-checker';
import { chainDustCount, chainScanLag } from './chain-scan';
import type { NetworkFigure } from './readers/chain-reader';
import { createChainReaders } from './readers/chain-readers';
import { txHashRoute } from './tx-hash-route';

const perNetwork = (
  name: string,
  help: string,
  read: (db: Kysely<Database>, now: number) => Promise<readonly NetworkFigure[]>,
): DatabaseGauge => ({
  name,
  help,
  labelNames: ['network'],
  read: async (db, now) =>
    (await read(db, now)).map(({ network, value }) => ({ labels: { network }, value })),
});

/** Read from the database at each scrape. */
const CHAIN_GAUGES: readonly DatabaseGauge[] = [
  {
    name: 'exchange_chain_check_lag_seconds',
    help: 'How long the most overdue deposit check has waited for the chain checker (0: none has)',
    read: async (db, now) => (await chainCheckLag(db, now)) / 1000,
  },
  perNetwork(
    'exchange_chain_lookup_backlog',
    'Hash lookups due and not made yet (the per-minute ration works through them), by network',
    chainLookupBacklog,
  ),
  perNetwork(
    'exchange_chain_dust_transfers',
    'Transfers to a deposit address under CHAIN_DUST_BELOW kept off the operators list, by network',
    chainDustCount,
  ),
  perNetwork(
    'exchange_chain_scan_lag_blocks',
    'Final blocks the deposit address scan has still to read, by EVM network (0: caught up)',
    chainScanLag,
  ),
];

export const chainModule = fp<ModuleOptions>(
  (app, options, done) => {
    const calls = app.metrics.counter({
      name: 'exchange_chain_calls_total',
      help: 'Calls the chain readers made to the nodes, by network, method and outcome (ok or a fault)',
      labelNames: ['network', 'method', 'outcome'],
    });
    app.decorate(
      'chain',
      createChainReaders(app.config.chain, {
        observer: {
          onCall: ({ network, method, outcome }) => calls.inc({ network, method, outcome }),
        },
      }),
    );
    app.metrics.gauges(CHAIN_GAUGES);
    void app.register(compressedRoutes(txHashRoute));
    // Only where a network is read from a node: all-manual servers make no chain calls.
    if (options.jobs && checksAnyChain(app)) {
      runWhileUp(app, [
        createChainChecker({
          ctx: {
            db: app.db,
            config: app.config,
            chain: app.chain,
            dialect: app.config.database.kind,
          },
          now: app.now,
          log: app.log,
          monitor: app.metrics.jobs,
        }),
      ]);
    }
    done();
  },
  { name: 'chain', dependencies: ['context', 'metrics', 'auth', 'call-limits'] },
);
