import type { ActionOrigin } from '../events/record-event.ts';
import type { Principal } from './principal.ts';

/** Who acts, and the origin stamped on the events the action produces: what every write service takes. */
export interface Caller {
  principal: Principal;
  origin: ActionOrigin;
}
