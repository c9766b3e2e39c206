/** The saved-details module's door: what the other modules may use of it. */
export { savedDetailsModule } from './saved-details-module';
