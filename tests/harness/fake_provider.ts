/**
 * One fake provider for unit tests of the session above a backend: it serves
 * a swappable snapshot (honouring `--app` and `--pid`) and records every
 * action. A test that needs an app which reacts subclasses it and overrides
 * `act`. Never a stand-in for e2e: live backends are tested on real apps.
 *
 * @module
 */

import { DesktopError } from "../../src/errors.ts";
import type { Element, Snapshot } from "../../src/model/element.ts";
import type {
  Action,
  ActionResult,
  ActionTarget,
  Provider,
  Scope,
} from "../../src/platform/provider.ts";

/** How a fake app behaves. */
export interface FakeOptions {
  /** The platform it reports (default: linux, the backend whose rules the session applies). */
  platform?: Provider["platform"];
  /**
   * How the app reacts to an action: it may change the snapshot in place,
   * and may say how the action ran (default: `{ via: "accessible" }`).
   */
  react?: (snapshot: Snapshot, action: Action) => ActionResult | void;
}

/** A provider over `snapshot` (swap it to change the app) that records what was acted on. */
export class FakeProvider implements Provider {
  /** The platform it reports. */
  readonly platform: Provider["platform"];
  /** Every action, in order, with the target the session resolved. */
  acted: Array<{ target: ActionTarget; action: Action }> = [];
  readonly #react?: FakeOptions["react"];

  /**
   * @param snapshot what every read returns (a copy)
   * @param opts platform and reaction
   */
  constructor(public snapshot: Snapshot, opts: FakeOptions = {}) {
    this.platform = opts.platform ?? "linux";
    this.#react = opts.react;
  }

  /** The actions alone, in order. */
  get actions(): Action[] {
    return this.acted.map((a) => a.action);
  }

  /** The snapshot's app. */
  listApps(): Promise<Snapshot["app"][]> {
    return Promise.resolve([this.snapshot.app]);
  }

  /** No windows. */
  listWindows(): Promise<[]> {
    return Promise.resolve([]);
  }

  /** A copy of the snapshot, or APP_NOT_FOUND for another app name or pid. */
  read(scope: Scope = {}): Promise<Snapshot> {
    if (scope.app !== undefined && scope.app !== this.snapshot.app.name) {
      return Promise.reject(new DesktopError("APP_NOT_FOUND", `no app "${scope.app}"`));
    }
    if (scope.pid !== undefined && scope.pid !== this.snapshot.app.pid) {
      return Promise.reject(new DesktopError("APP_NOT_FOUND", `no app with pid ${scope.pid}`));
    }
    return Promise.resolve(structuredClone(this.snapshot));
  }

  /** Records the action, then lets the app react (by default nothing changes). */
  act(_scope: Scope, target: ActionTarget, action: Action): Promise<ActionResult> {
    this.acted.push({ target, action });
    return Promise.resolve(this.#react?.(this.snapshot, action) ?? { via: "accessible" });
  }

  /** The native id of each element acted on, in order ("point" for a point). */
  actedNids(): string[] {
    return this.acted.map((a) => "element" in a.target ? a.target.element.nid ?? "?" : "point");
  }

  /** Nothing to release. */
  close(): void {}
}

/**
 * An element for a test tree: role, label, and any other keys.
 *
 * @param r the role
 * @param t the label
 * @param extra other keys (children, native id, bounds...)
 * @returns the element, id 0 until a read numbers it
 */
export function el(r: Element["r"], t?: string, extra: Partial<Element> = {}): Element {
  return { i: 0, r, ...(t !== undefined ? { t } : {}), ...extra };
}
