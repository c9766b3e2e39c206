/**
 * Security headers, built once (@fastify/helmet builds a helmet per request). Every answer gets
 * only three, so the status poll stays small; a page of the app gets a CSP that lets only
 * Telegram's web clients frame it, and HSTS when asked for over HTTPS.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

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

export function securePage(request: FastifyRequest, reply: FastifyReply): void {
  page(request.raw, reply.raw, noop);
  if (request.protocol === 'https') hsts(request.raw, reply.raw, noop);
}

/** Worked out once, for they never change. */
export const EVERY_ANSWER_HEADERS: readonly (readonly [name: string, value: string])[] = (() => {
  // helmet only sets headers on the response, and calls back at once, never with an error.
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  everyAnswer(request, response, noop);
  return Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]);
})();
