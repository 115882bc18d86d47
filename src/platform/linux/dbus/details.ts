/**
 * The per-node attributes that no bulk call returns (extents, action names,
 * text, values, attributes, labelled-by), fetched with many calls in flight.
 * Which node needs which call mirrors the libatspi walk, so both readers
 * print the same thing.
 *
 * @module
 */

import { DesktopError } from "../../../errors.ts";
import {
  type AtspiRawNode,
  capText,
  PASSIVE_ROLES,
  readsAttributes,
  readsLinkRange,
  readsSelection,
  readsText,
  selectionOf,
  TEXT_CAP,
} from "../raw.ts";
import type { AppCall } from "./atspi_bus.ts";
import type { ItemIndex } from "./cache_items.ts";
import { getProperties } from "./props.ts";
import type { Reader } from "./unmarshal.ts";
import type { Variant } from "./value.ts";
import { readLabelFor, wantsLabelFor } from "./relations.ts";
import { linkRange } from "../raw.ts";

/** Roles that may be labelled by another object. */
const LABELLABLE_ROLES = new Set([7, 11, 31, 43, 44, 45, 51, 52, 61, 62, 79, 40, 87]);
/** AtspiRelationType LABELLED_BY. */
const RELATION_LABELLED_BY = 2;
/** Object attributes worth keeping. */
const ATTRIBUTE_KEYS = [
  "placeholder-text",
  "level",
  "tag",
  "id",
  "xml-roles",
  "valuetext",
  "sort",
];

/**
 * Roles whose object attributes are read for what they say of a value or an
 * order: a slider's or dial's value text (Chromium's `valuetext`), a column
 * header's sort order (`sort`).
 */
const VALUE_ATTRIBUTE_ROLES: ReadonlySet<number> = new Set([
  15, /* dial */
  51, /* slider */
  10, /* column header */
  57, /* table column header */
]);
const ATSPI = "org.a11y.atspi.";
const COORD_TYPE_SCREEN = 0;
/** Properties of the Value interface that are read. */
const VALUE_PROPERTIES = ["CurrentValue", "MinimumValue", "MaximumValue", "Text"];

/** Reads a `(iiii)` extents reply. */
function readExtents(r: Reader, sig: string): [number, number, number, number] {
  if (sig !== "(iiii)") throw unexpected(sig, "GetExtents");
  r.align(8);
  return [r.readInt32(), r.readInt32(), r.readInt32(), r.readInt32()];
}

/** Reads a `s` GetText reply. */
function readText(r: Reader, sig: string): string {
  if (sig !== "s") throw unexpected(sig, "GetText");
  return r.readString();
}

/** Reads a single-string reply. */
function readOneString(r: Reader, sig: string): string {
  if (sig !== "s") throw unexpected(sig, "GetName");
  return r.readString(true);
}

function unexpected(sig: string, member: string): DesktopError {
  return new DesktopError("INTERNAL", `${member} answered with signature "${sig}"`, {
    suggestion: "The app's accessibility support differs from AT-SPI 2; report the app",
  });
}

/** What the app's toolkit answers safely and how (toolkit.ts): which calls a read may make. */
export interface AppTraits {
  /** `Properties.GetAll` instead of a `Get` per property. */
  getAll: boolean;
  /**
   * A whole text asked as (0, -1) may come back "" though there is text (GTK
   * 4.8): an empty answer is checked against the character count.
   */
  emptyWholeTextMayLie: boolean;
}

/** The traits of an app whose toolkit is not known: one Get per property, every check made. */
export const UNKNOWN_APP: AppTraits = { getAll: false, emptyWholeTextMayLie: true };

/** One fetch for one node. */
type Task = () => Promise<void>;

/**
 * The fetches a node needs, given its role, interfaces and name.
 *
 * Text is read from inputs, and from every other leaf that has the Text
 * interface (a PDF page, a document paragraph, a spreadsheet cell, a label
 * without a name): a container's text only repeats its children's, with one
 * U+FFFC per child.
 *
 * @param node the node (basic fields filled)
 * @param bounds whether extents are wanted
 * @param leaf whether the node has no children
 * @returns the names of the fetches, in a fixed order
 * @example
 * ```ts
 * import { plan } from "./details.ts";
 * plan({ bus: ":1.2", path: "/a", role: 43, name: "OK", description: "", states: [0, 0],
 *   interfaces: ["org.a11y.atspi.Component", "org.a11y.atspi.Action"], children: [] }, true);
 * // ["extents", "actions"]
 * ```
 */
export function plan(node: AtspiRawNode, bounds: boolean, leaf = false): string[] {
  const has = (i: string) => node.interfaces.includes(ATSPI + i);
  const out: string[] = [];
  const editable = has("EditableText");
  if (bounds && has("Component")) out.push("extents");
  if (has("Action") && !PASSIVE_ROLES.has(node.role)) out.push("actions");
  if (has("Value")) out.push("value");
  // Secrets stay secret: a password field's text is never read.
  if (readsText(node, leaf)) out.push("text");
  if (readsSelection(node)) out.push("selection");
  if (readsAttributes(node) || VALUE_ATTRIBUTE_ROLES.has(node.role)) out.push("attributes");
  if (node.name === "" && (LABELLABLE_ROLES.has(node.role) || editable)) out.push("labelledBy");
  if (wantsLabelFor(node)) out.push("labelFor");
  if (readsLinkRange(node)) out.push("linkRange");
  return out;
}

/**
 * Fetches the planned attributes of nodes as they are found, at most
 * `maxInFlight` calls at a time, writing the results into the nodes. Fetching
 * starts while the tree is still being discovered, so the app always has
 * calls queued. An attribute that fails with anything but an unresponsive app
 * is left out.
 *
 * @example
 * ```ts ignore
 * const fetcher = new DetailFetcher(idx, call, true, 4096);
 * fetcher.add(node);
 * await fetcher.finish();
 * ```
 */
export class DetailFetcher {
  readonly #idx: ItemIndex | null;
  readonly #call: AppCall;
  readonly #bounds: boolean;
  readonly #max: number;
  readonly #traits: AppTraits;
  readonly #queue: Task[] = [];
  #head = 0;
  #active = 0;
  #error: unknown = null;
  #idle: (() => void) | null = null;

  /**
   * @param idx the cache index (for names of label targets), or null
   * @param call the app call function
   * @param bounds whether extents are wanted
   * @param maxInFlight concurrency limit
   * @param traits what the app's toolkit answers safely (by default: as for an unknown one)
   */
  constructor(
    idx: ItemIndex | null,
    call: AppCall,
    bounds: boolean,
    maxInFlight: number,
    traits: AppTraits = UNKNOWN_APP,
  ) {
    this.#idx = idx;
    this.#traits = traits;
    this.#call = call;
    this.#bounds = bounds;
    this.#max = maxInFlight;
  }

  /**
   * Queues the fetches one node needs.
   *
   * @param node a node whose basic fields are known
   * @param leaf whether it has no children
   */
  add(node: AtspiRawNode, leaf = false): void {
    for (const what of plan(node, this.#bounds, leaf)) {
      this.#queue.push(() => fetchOne(node, what, this.#idx, this.#call, this.#traits));
    }
    this.#pump();
  }

  /**
   * Stops starting queued fetches; {@link finish} then rejects with `reason`.
   *
   * @param reason why the read failed
   */
  abort(reason: unknown): void {
    this.#error ??= reason;
  }

  /**
   * Resolves when every queued fetch has finished.
   *
   * @throws DesktopError APP_UNRESPONSIVE when the app stopped answering
   */
  async finish(): Promise<void> {
    if (this.#active > 0 || (this.#head < this.#queue.length && !this.#error)) {
      await new Promise<void>((resolve) => this.#idle = resolve);
    }
    if (this.#error) throw this.#error;
  }

  #pump(): void {
    while (this.#active < this.#max && this.#head < this.#queue.length && !this.#error) {
      const task = this.#queue[this.#head++];
      this.#active++;
      task().catch((e) => this.#error ??= e).finally(() => {
        this.#active--;
        this.#pump();
        if (this.#active === 0 && (this.#head >= this.#queue.length || this.#error)) {
          this.#head = this.#queue.length = 0;
          this.#idle?.();
          this.#idle = null;
        }
      });
    }
  }
}

async function fetchOne(
  node: AtspiRawNode,
  what: string,
  idx: ItemIndex | null,
  call: AppCall,
  traits: AppTraits,
): Promise<void> {
  const p = node.path;
  try {
    switch (what) {
      case "extents": {
        node.extents = await call(
          p,
          ATSPI + "Component",
          "GetExtents",
          "u",
          [COORD_TYPE_SCREEN],
          readExtents,
        );
        return;
      }
      case "actions": {
        // The count comes from the NActions property, never from GetActions:
        // that reply carries each action's key binding, and Firefox ESR
        // aborts (libdbus invalid-UTF-8 assertion) building it for the items
        // of an open menu. `desktop action` takes the names GetName returns;
        // GetActions gives localized names instead ("Click" in GTK 3, "" in
        // Chromium).
        const props = await getProperties(call, p, ATSPI + "Action", ["NActions"]);
        const n = Number(props.get("NActions") ?? 0);
        node.actions = await Promise.all(
          Array.from(
            { length: n },
            (_, i) => call(p, ATSPI + "Action", "GetName", "i", [i], readOneString),
          ),
        );
        return;
      }
      case "value": {
        // One Get per property, whatever the toolkit: the ATK bridge builds a GetAll of Value
        // from the app's values, and one it cannot convert (Chromium's number field with no
        // value yet) leaves the reply's a{sv} unfinished: libdbus aborts the app.
        const m = await getProperties(call, p, ATSPI + "Value", VALUE_PROPERTIES);
        const num = (k: string) => Number(m.get(k) ?? 0);
        node.value = {
          current: num("CurrentValue"),
          min: num("MinimumValue"),
          max: num("MaximumValue"),
        };
        const text = m.get("Text");
        if (typeof text === "string" && text !== "") node.value.text = text;
        return;
      }
      case "text": {
        // The whole text (-1), as LibreOffice fails an end past the length;
        // GTK 4.8 answers "" for -1, so the length decides when that is wrong.
        // The length is asked only of an empty answer, and only where "" may be wrong.
        const whole = await call(p, ATSPI + "Text", "GetText", "ii", [0, -1], readText);
        const count = whole !== "" || !traits.emptyWholeTextMayLie ? 0 : await getProperties(
          call,
          p,
          ATSPI + "Text",
          ["CharacterCount"],
        ).then((m) => Number(m.get("CharacterCount") ?? 0));
        node.text = capText(
          whole === "" && count > 0
            ? await call(
              p,
              ATSPI + "Text",
              "GetText",
              "ii",
              [0, Math.min(count, TEXT_CAP + 1)],
              readText,
            )
            : whole,
        );
        return;
      }
      case "selection": {
        const m = await getProperties(call, p, ATSPI + "Text", ["CaretOffset"]);
        const caret = Number(m.get("CaretOffset") ?? -1);
        const [count] = await call(p, ATSPI + "Text", "GetNSelections");
        let range: [number, number] | undefined;
        if (Number(count) > 0) {
          const [start, end] = await call(p, ATSPI + "Text", "GetSelection", "i", [0]);
          range = [Number(start), Number(end)];
        }
        const sel = selectionOf(caret, range);
        if (sel) node.selection = sel;
        return;
      }
      case "attributes": {
        const [pairs] = await call(p, ATSPI + "Accessible", "GetAttributes");
        const out: Record<string, string> = {};
        for (const [k, v] of pairs as Array<[string, string]>) {
          if (ATTRIBUTE_KEYS.includes(k)) out[k] = v;
        }
        if (Object.keys(out).length) node.attributes = out;
        return;
      }
      case "labelFor":
        return await readLabelFor(node, call);
      case "linkRange": {
        const m = await getProperties(call, p, ATSPI + "Hyperlink", ["StartIndex", "EndIndex"]);
        const range = linkRange(Number(m.get("StartIndex")), Number(m.get("EndIndex")));
        if (range) node.linkRange = range;
        return;
      }
      case "labelledBy": {
        const [rels] = await call(p, ATSPI + "Accessible", "GetRelationSet");
        for (const [type, targets] of rels as Array<[number, Array<[string, string]>]>) {
          if (type !== RELATION_LABELLED_BY || targets.length === 0) continue;
          const [bus, path] = targets[0];
          if (bus !== node.bus) return; // a label in another app is not worth a second bus
          let name = idx?.byPath.get(path)?.name;
          if (name === undefined) {
            const [v] = await call(path, "org.freedesktop.DBus.Properties", "Get", "ss", [
              ATSPI + "Accessible",
              "Name",
            ]);
            name = String((v as Variant).value);
          }
          if (name) node.labelledBy = name;
          return;
        }
        return;
      }
    }
  } catch (e) {
    // Optional attributes: only an app that stopped answering fails the read.
    if (e instanceof DesktopError && e.code === "APP_UNRESPONSIVE") throw e;
  }
}
