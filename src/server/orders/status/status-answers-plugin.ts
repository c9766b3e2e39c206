/** The status answers kept between polls (orders/status/status-answers.ts) as `app.statusAnswers`. */
import fp from 'fastify-plugin';
import { StatusAnswers } from './status-answers';

declare module 'fastify' {
  interface FastifyInstance {
    readonly statusAnswers: StatusAnswers;
  }
}

export const statusAnswersPlugin = fp(
  (app, _options, done) => {
    app.decorate('statusAnswers', new StatusAnswers(app.db, app.config.database.kind));
    done();
  },
  { name: 'status-answers', dependencies: ['context'] },
);
