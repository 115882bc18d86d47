/**
 * The `read` verb: the element tree of an app or window.
 *
 * @module
 */

import { windowBoundsOf } from "../../model/tree.ts";
import { READ_MAX_TEXT } from "../../output/agent_line.ts";
import { DEFAULT_MCP_BUDGET, fitBudget, o200kCounter } from "../../output/budget.ts";
import { type Format, renderElements } from "../../output/render.ts";
import { toYaml } from "../../output/yaml.ts";
import { rolesFilter, type ScopeArgs, toScope } from "../params.ts";
import { defineOp, type Op } from "../types.ts";
import { spelling } from "../validate.ts";
import { LIVE, READ } from "./_shared.ts";

/** Arguments of `read`. */
export interface ReadArgs extends ScopeArgs {
  /** Roles list. */
  roles?: string;
  /** Only elements an agent can act on (added to `roles`). */
  interactive?: boolean;
  /** Text filter. */
  text?: string;
  /** Depth limit. */
  depth?: number;
  /** Focused element and its ancestors. */
  focused?: boolean;
  /** Subtree of this ref. */
  scope_ref?: string;
  /** Element cap. */
  max_elements?: number;
  /** Drop unlabeled containers. */
  prune?: boolean;
  /** A flat list with landmark paths. */
  flat?: boolean;
  /** Include screen bounds (default true). */
  bounds?: boolean;
  /** Output format. */
  format?: Format;
  /** CLI: also write the snapshot to this file. */
  save?: string;
  /** CLI: read this snapshot file. */
  from?: string;
  /** Agent format: a token budget (0 or absent: none). */
  budget?: number;
  /** Agent format: whole refs. */
  full_refs?: boolean;
  /** Agent format: longest text printed per element (0: no cap). */
  max_text?: number;
}

/** Result of `read`: the rendered tree and how much of it was kept. */
export interface ReadOpResult {
  /** The tree in the requested format. */
  text: string;
  /** Elements read. */
  total: number;
  /** Elements kept by the filters. */
  kept: number;
  /** Elements left out by max_elements. */
  truncated?: number;
}

/** Writes `save`; a path that cannot be written is the caller's argument error. */
async function saveSnapshot(path: string, text: string): Promise<void> {
  // Private to the user (0600) and replaced whole: see src/io/private_write.ts.
  const { writePrivateFile } = await import("../../io/private_write.ts");
  await writePrivateFile(path, text, "--save");
}

/** The text last printed of each view, for a view read again unchanged (one per view). */
const renderedViews = new WeakMap<object, { asked: string; text: string }>();

/** The `read` operation. */
export const read: Op<ReadArgs, ReadOpResult> = defineOp<ReadArgs, ReadOpResult>({
  name: "read",
  doc: "Read an app's UI as a tree; each element line has a stable ref (form/email) to act on.",
  examples: [
    "desktop read --app Chromium --interactive",
    "desktop read --app Chromium --scope-ref form --format yaml",
    "desktop read --app Chromium --save before.json",
    "desktop read --app Chromium --prune                    # leanest tree for a prompt",
    "desktop read --app Chromium --bounds                   # with screen boxes (x,y,w,h)",
    "desktop read --from before.json --flat --roles btn",
  ],
  hints: READ,
  params: [
    ...LIVE,
    { name: "flat", type: "boolean", doc: "flat list, not a tree" },
    { name: "roles", type: "string", doc: "keep roles: btn,input,..." },
    { name: "interactive", type: "boolean", doc: "keep what can be acted on (adds to roles)" },
    { name: "text", type: "string", doc: "keep elements with this text" },
    { name: "depth", type: "int", min: 0, doc: "maximum depth" },
    { name: "focused", type: "boolean", doc: "only the focused element and ancestors" },
    { name: "scope_ref", type: "string", doc: "only this ref's subtree" },
    { name: "max_elements", type: "int", min: 1, doc: "stop after this many" },
    { name: "prune", type: "boolean", doc: "drop unlabeled containers" },
    {
      name: "bounds",
      type: "boolean",
      negatable: true,
      doc: "screen boxes (default: in json and yaml, not in the agent format)",
    },
    {
      name: "format",
      type: "enum",
      choices: ["agent", "yaml", "json"],
      default: "agent",
      doc: "output format",
    },
    {
      name: "save",
      type: "string",
      face: "cli",
      doc: "also write the full snapshot (JSON) to this file for --from and diff",
    },
    {
      name: "budget",
      type: "int",
      min: 1,
      faceDefault: { mcp: DEFAULT_MCP_BUDGET },
      doc: "agent format: about this many tokens at most; big repeated regions collapse",
    },
    { name: "full_refs", type: "boolean", doc: "agent format: whole refs, not shortest suffixes" },
    {
      name: "max_text",
      type: "int",
      min: 0,
      doc: `agent format: longest text per element (default ${READ_MAX_TEXT}; 0: no cap)`,
    },
  ],
  async run(ctx, args) {
    const desktop = await ctx.desktop();
    const { snapshot, view } = await desktop.read(toScope(args), {
      roles: rolesFilter(args.roles, args.interactive),
      text: args.text,
      depth: args.depth,
      focused: args.focused,
      scopeRef: args.scope_ref,
      maxElements: args.max_elements,
      prune: args.prune,
    });
    if (args.save !== undefined) {
      const { snapshotToText } = await import("../../platform/replay/snapshot_file.ts");
      await saveSnapshot(args.save, snapshotToText(snapshot));
    }
    const format = args.format ?? "agent";
    // Boxes are for programs and pointer work: an agent acts by ref, and every box costs
    // about ten tokens, so the agent format leaves them out unless asked.
    const bounds = args.bounds ?? format !== "agent";
    // Without bounds, no box anywhere: not the window's either.
    const window = snapshot.window && !bounds
      ? (({ b: _b, ...w }) => w)(snapshot.window)
      : snapshot.window;
    const meta = {
      app: snapshot.app,
      ...(window ? { window } : {}),
      readAt: snapshot.readAt,
      total: view.total,
      kept: view.kept,
      ...(view.truncated ? { truncated: view.truncated } : {}),
    };
    const counts = {
      total: view.total,
      kept: view.kept,
      ...(view.truncated ? { truncated: view.truncated } : {}),
    };
    if (!view.root) {
      // Not an error: say so in the requested format.
      const text = format === "agent"
        ? `(no element matched the filters; ${view.total} elements read)`
        : format === "json"
        ? JSON.stringify({ ...meta, root: null })
        : toYaml({ ...meta, root: null }).replace(/\n$/, "");
      return { text, ...counts };
    }
    // A session that reuses unchanged reads gives the same view again: so is its text. The
    // agent format prints no meta (json and yaml carry the read's time, so they are new).
    const asked = JSON.stringify([
      format,
      args.flat,
      bounds,
      args.full_refs,
      args.max_text,
      args.budget,
      format === "agent" ? null : meta,
    ]);
    const before = renderedViews.get(view);
    let text: string;
    if (before?.asked === asked) {
      text = before.text;
    } else {
      text = renderElements(view.root, {
        format,
        flat: args.flat,
        meta,
        bounds,
        viewport: windowBoundsOf(snapshot.root, view.root.i),
        refsFrom: snapshot.root,
        shortRefs: !args.full_refs,
        ...(args.max_text !== undefined ? { maxText: args.max_text } : {}),
      });
      if (args.budget && format === "agent") {
        text = fitBudget(text, args.budget, await o200kCounter());
      }
      text = text.replace(/\n$/, "");
      renderedViews.set(view, { asked, text });
    }
    if (view.truncated && format === "agent") {
      // yaml/json carry `truncated`; agent text says it in words.
      const [max, scopeRef, roles] = ["max_elements", "scope_ref", "roles"].map((n) =>
        spelling(n, ctx.face)
      );
      text += `\n... ${view.truncated} more elements not shown (raise ${max}, or narrow ` +
        `with ${scopeRef}/${roles})`;
    }
    return { text, ...counts };
  },
  render: (r) => r.text,
});
