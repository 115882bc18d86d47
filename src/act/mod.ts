/**
 * The action policy, once for every backend: how an action's effect is
 * verified and reported, and the key-combo grammar both platforms share.
 *
 * @module
 */

export {
  DEFAULT_SETTLE_MS,
  type Effect,
  effectOf,
  judgeEffect,
  settleChanges,
  type Settled,
  type SettleOptions,
} from "./effect.ts";
