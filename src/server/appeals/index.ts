/** The appeals module's door: what the other modules may use of it. */
export { appealsModule } from './appeals-module';
