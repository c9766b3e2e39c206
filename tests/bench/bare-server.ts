/**
 * The yardstick: a bare `node:http` server that answers every request with the same JSON body
 * (the benchmark passes a real status answer, so both sides move the same bytes). Whatever the
 * project's server does beyond this is its own cost. Listens on the port of argv[2]; the body is
 * the file named by argv[3].
 */
import fs from 'node:fs';
import http from 'node:http';

const port = Number(process.argv[2]);
const body = fs.readFileSync(process.argv[3] ?? '');

http
  .createServer((_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      'cache-control': 'no-store',
    });
    response.end(body);
  })
  .listen(port, '127.0.0.1', () => {
    process.stdout.write('listening\n');
  });
