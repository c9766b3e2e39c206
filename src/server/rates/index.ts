/** The rates module's door: what the other modules may use of it. */
export { ratesModule } from './rates-module';
export { quote } from './rates';
export { readRates } from './rates-view';
export { confirmJump, fixRate, setBaseRate, setSpread } from './rate-settings';
