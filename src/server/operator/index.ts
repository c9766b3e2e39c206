/** The operator module's door: what the other modules may use of it. */
export { operatorModule } from './operator-module';
export { type AppealStep, completeWith } from './verbs/complete';
export { rejectOrder } from './verbs/reject';
export { consoleOrderRead } from './operator-routes';
