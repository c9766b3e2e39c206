/**
 * Security headers, set by helmet, built once at start-up. Every answer says
 * `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (an order's id is in its
 * screen's address) and `Cross-Origin-Resource-Policy: same-origin`: no more, so that the
 * status poll, answered every few seconds, stays small. A page of the app (index.html, at every
 * client route) gets the rest: a Content-Security-Policy that loads nothing from elsewhere and
 * lets Telegram's web clients, and nobody else, frame the app; and, when it was asked for over
 * HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto), Strict-Transport-Security.
 *
 * @fastify/helmet is not used: it builds a new helmet for every request, which costs the hottest
 * calls more than the headers themselves.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/** The web versions of Telegram, the only pages that may show the app in a frame. */
export const TELEGRAM_WEB_CLIENTS = [
  'https://web.telegram.org',
  'https://webk.telegram.org',
  'https://webz.telegram.org',
] as const;

const everyAnswer = helmet({
  contentSecurityPolicy: false,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  strictTransportSecurity: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: false,
  xPermittedCrossDomainPolicies: false,
  xPoweredBy: false,
  xXssProtection: false,
});

const page = helmet({
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      // Telegram's UI kit and React set style attributes.
      'style-src': ["'self'", "'unsafe-inline'"],
      // A receipt's preview is a blob: URL; the deposit QR code, a data: URL.
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'frame-ancestors': [...TELEGRAM_WEB_CLIENTS],
      // The demo is served over plain HTTP on a local network: nothing to upgrade to.
      'upgrade-insecure-requests': null,
    },
  },
  // Superseded by the policy's frame-ancestors, and unable to name several framers.
  xFrameOptions: false,
  strictTransportSecurity: false,
});

/** A year, without subdomains: those may be someone else's. */
const hsts = helmet.strictTransportSecurity({ includeSubDomains: false });

const noop = () => undefined;

/** The headers of a page of the app; `reply` is then sent by the caller. */
export function securePage(request: FastifyRequest, reply: FastifyReply): void {
  page(request.raw, reply.raw, noop);
  if (request.protocol === 'https') hsts(request.raw, reply.raw, noop);
}

/**
 * The headers of every answer, as helmet sets them: worked out once, for they never change, and
 * sent to every request by the request-wide hook and the poll lane (request-wide.ts).
 */
export const EVERY_ANSWER_HEADERS: readonly (readonly [name: string, value: string])[] = (() => {
  // helmet only sets headers on the response, and calls back at once, never with an error.
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  everyAnswer(request, response, noop);
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]);
})();
