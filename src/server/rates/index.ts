/** The rates module's door: what the other modules may use of it. */
export { ratesModule } from './rates-module';
export { quote, readRates, setBaseRate, setSpread } from './rates';
