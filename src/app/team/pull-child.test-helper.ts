/**
 * The pull child of pull-at-start.test.ts (started compiled: test/helpers/script-process.ts):
 * says "pulled" as the pull does (tellPulled), then stays STAY_MS — what its exit would cost
 * (the connection closed, the code cache written) the session start need not wait for.
 */
import { tellPulled } from './pull-at-start.ts';

tellPulled(process.env);
setTimeout(() => {}, Number(process.env.STAY_MS));
