/**
 * A closed-loop load generator in a process of its own (autocannon): `connections` keep-alive
 * connections, each sending its next request when the last one is answered, for `seconds`. Each
 * request is a random one of the targets (or the next one, in order, when `inOrder`: a create
 * per customer). Reads its job as JSON from the file named by argv[2]; prints its result as one
 * line of JSON. Run by tests/bench/api.ts.
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import type { LoadJob, LoadResult } from './load-job';

const job = JSON.parse(fs.readFileSync(process.argv[2] ?? '', 'utf8')) as LoadJob;
let next = 0;

const result = await autocannon({
  url: job.url,
  connections: job.connections,
  duration: job.seconds,
  pipelining: 1,
  requests: [
    {
      setupRequest: (request) => {
        const index = job.inOrder
          ? next++ % job.targets.length
          : Math.floor(Math.random() * job.targets.length);
        const target = job.targets[index] ?? job.targets[0];
        if (target === undefined) throw new Error('no targets');
        return {
          ...request,
          method: target.method,
          path: target.path,
          headers: { ...target.headers },
          ...(target.body === undefined ? {} : { body: target.body }),
        };
      },
    },
  ],
});

{
  const answer: LoadResult = {
    requests: result.requests.total,
    perSecond: result.requests.total / job.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // A 304 is an answer (the status revalidated); a 4xx or 5xx is not.
    failed: result['4xx'] + result['5xx'],
    errors: result.errors + result.timeouts,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
}
