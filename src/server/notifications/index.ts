/** The notifications module's door: what the other modules may use of it. */
export { notificationsModule } from './notifications-module';
export { type RenderedMessage, plainText, renderStored } from './render';
