/** The operator module's door: what the other modules may use of it. */
export { operatorModule } from './operator-module';
export { type AppealStep, completeWith, rejectOrder } from './operator-orders';
export { consoleOrderRead } from './operator-routes';
