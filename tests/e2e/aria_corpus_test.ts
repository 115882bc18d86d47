/**
 * The ARIA widget corpus (tests/fixtures/web/aria_corpus/) driven end to end
 * in Chromium, by refs, as an agent does: read, then act by the refs the read
 * printed, through the CLI and through MCP. Fifteen patterns on three pages:
 * slider, spin button, select-only combobox (active descendant), editable
 * combobox with list autocomplete, single- and multi-select listbox (inputs);
 * menubar with hover submenus, menu button, tabs, disclosure, modal dialog
 * (menus); tree view, treegrid, grid with in-cell buttons, sortable table
 * (data).
 *
 * Witness: each page writes its own state into its title after every change,
 * read through pyatspi (the window's name), never the tool's output. Every
 * signal is checked against it: an action that changed the page is `ok`
 * without "unverified", the ok line's state and value match the page, and no
 * ref the read just printed is refused. The calls each task took are counted
 * and printed.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { writeRefsOut } from "../../src/output/agent_parse.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";
import { mcpClient } from "./mutation_scenarios.ts";

const CORPUS = `${REPO_ROOT}tests/fixtures/web/aria_corpus/`;

/** The page's state as it wrote it into its title (`k=v` pairs), read through pyatspi. */
async function pageState(d: TestDesktop, key: string): Promise<Record<string, string>> {
  const title = await pyatspiJson<string>(
    d,
    `print(json.dumps(next((w.name for w in app if w is not None and " ${key}=" in " " + w.name), "")))`,
  );
  return Object.fromEntries(
    title.replace(/ - Chromium$/, "").split(" ").filter(Boolean).map((kv) =>
      kv.split("=", 2) as [string, string]
    ),
  );
}

/** One element line of a read: the ref it printed, its role, and the whole line. */
interface Printed {
  ref: string;
  role: string;
  line: string;
}

/** The refs a read printed, to act by (never a ref the test did not read). */
class Refs {
  readonly items: Printed[];
  constructor(readonly text: string) {
    this.items = [...writeRefsOut(text).matchAll(/^\s*\[\d+\|([^\]]+)\] (\S+)(.*)$/gm)].map((
      m,
    ) => ({
      ref: m[1],
      role: m[2],
      line: m[0],
    }));
  }
  /** The ref printed for the element of `role` labelled (or, for a row, keyed) `label`. */
  of(role: string, label: string): string {
    const quoted = JSON.stringify(label);
    const hits = this.items.filter((p) => p.role === role && p.line.includes(quoted));
    const exact = hits.filter((p) => p.line.includes(`${role} ${quoted}`));
    const pick = exact.length === 1 ? exact : hits;
    assert.equal(pick.length, 1, `one ${role} ${quoted} in the read:\n${this.text}`);
    return pick[0].ref;
  }
}

/** An action an agent asks for, the same through the CLI and MCP. */
type Act =
  | { verb: "click"; ref: string; diff?: boolean }
  | { verb: "type"; ref: string; text: string }
  | { verb: "key"; combo: string; ref?: string }
  | { verb: "set-value"; ref: string; value: string };

/** What one call answered. */
interface Answer {
  ok: boolean;
  text: string;
  code?: string;
}

/** An agent on one channel, counting its calls. */
interface Agent {
  channel: "cli" | "mcp";
  calls: number;
  read(): Promise<Refs>;
  call(act: Act): Promise<Answer>;
}

function cliAgent(d: TestDesktop): Agent {
  const agent: Agent = {
    channel: "cli",
    calls: 0,
    async read() {
      agent.calls++;
      const res = await runCli(d, ["read", "--app", d.appName]);
      assert.equal(res.code, 0, res.stderr);
      return new Refs(res.stdout);
    },
    async call(act) {
      agent.calls++;
      const args = act.verb === "click"
        ? ["click", "--ref", act.ref, ...(act.diff ? ["--diff"] : [])]
        : act.verb === "type"
        ? ["type", "--ref", act.ref, act.text]
        : act.verb === "key"
        ? ["key", act.combo, ...(act.ref ? ["--ref", act.ref] : [])]
        : ["set-value", "--ref", act.ref, act.value];
      const res = await runCli(d, [...args, "--app", d.appName]);
      if (res.code === 0) return { ok: true, text: res.stdout.trim() };
      return { ok: false, text: res.stdout + res.stderr, code: cliError(res).code };
    },
  };
  return agent;
}

async function mcpAgent(d: TestDesktop): Promise<Agent & AsyncDisposable> {
  const { client, call } = await mcpClient(d);
  const agent = {
    channel: "mcp" as const,
    calls: 0,
    async read() {
      agent.calls++;
      const res = await call("read", { app: d.appName });
      assert.equal(res.isError, false, res.text);
      return new Refs(res.text);
    },
    async call(act: Act): Promise<Answer> {
      agent.calls++;
      const args = act.verb === "click"
        ? { ref: act.ref }
        : act.verb === "type"
        ? { ref: act.ref, text: act.text }
        : act.verb === "key"
        ? { combo: act.combo, ...(act.ref ? { ref: act.ref } : {}) }
        : { ref: act.ref, value: act.value };
      const tool = act.verb === "set-value" ? "set_value" : act.verb;
      const res = await call(tool, { app: d.appName, ...args });
      const code = /"code":\s*"([A-Z_]+)"/.exec(res.text)?.[1] ??
        /\b([A-Z]+_[A-Z_]+)\b/.exec(res.text)?.[1];
      return { ok: !res.isError, text: res.text.trim(), ...(res.isError && code ? { code } : {}) };
    },
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
  return agent;
}

/** The calls each task took, per channel, printed at the end. */
const tally: string[] = [];

/**
 * Acts and checks every signal against the page: `ok`; no "unverified" when
 * the page changed; the page shows `expect`; the ok line matches `line`.
 */
async function act(
  d: TestDesktop,
  agent: Agent,
  key: string,
  a: Act,
  expect: Record<string, string>,
  line?: RegExp,
): Promise<string> {
  const before = await pageState(d, key);
  const changes = Object.entries(expect).some(([k, v]) => before[k] !== v);
  const res = await agent.call(a);
  assert.ok(res.ok, `${agent.channel} ${JSON.stringify(a)}: ${res.text}`);
  const after = await eventually(`the page to show ${JSON.stringify(expect)}`, async () => {
    const s = await pageState(d, key);
    return Object.entries(expect).every(([k, v]) => s[k] === v) ? s : undefined;
  }, 10_000);
  const changed = Object.keys({ ...before, ...after }).some((k) => before[k] !== after[k]);
  if (changes || changed) {
    assert.doesNotMatch(res.text, /unverified/, `the page changed: ${JSON.stringify(a)}`);
  }
  if (line) assert.match(res.text, line, `${agent.channel} ${JSON.stringify(a)}`);
  return res.text;
}

/** Runs one task for an agent and counts its calls. */
async function task(agent: Agent, name: string, fn: () => Promise<void>): Promise<void> {
  const start = agent.calls;
  await fn();
  tally.push(`${agent.channel} ${name}: ${agent.calls - start} calls`);
}

async function loaded(d: TestDesktop, key: string): Promise<void> {
  await eventually(
    "the page",
    async () => (await pageState(d, key))[key] ? true : undefined,
    60_000,
  );
}

const live = { ignore: !hasDesktopTools(), sanitizeResources: false, sanitizeOps: false };

Deno.test({
  name: "aria corpus, inputs: slider, spin button, select-only and editable combobox, listboxes",
  ...live,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: `${CORPUS}inputs.html` });
    const K = "temp";
    await loaded(d, K);
    const cli = cliAgent(d);
    await using mcp = await mcpAgent(d);

    await t.step("slider: set the temperature", async () => {
      for (const [agent, value] of [[cli, "27"], [mcp, "18"]] as const) {
        await task(agent, "slider", async () => {
          const refs = await agent.read();
          const ref = refs.of("slider", "Temperature");
          await act(
            d,
            agent,
            K,
            { verb: "set-value", ref, value },
            { temp: value },
            new RegExp(
              `slider "Temperature".* val="${value}" valtext="${value} °C"`,
            ),
          );
        });
      }
    });

    await t.step("spin button: set the nights", async () => {
      for (const [agent, value] of [[cli, "9"], [mcp, "4"]] as const) {
        await task(agent, "spin button", async () => {
          const ref = (await agent.read()).of("spin", "Nights");
          await act(
            d,
            agent,
            K,
            { verb: "set-value", ref, value },
            { nights: value },
            new RegExp(
              `spin "Nights".* val="${value}"`,
            ),
          );
        });
      }
    });

    await t.step(
      "select-only combobox: choose a seat class; a missing one names the real",
      async () => {
        for (const [agent, value] of [[cli, "Business"], [mcp, "First"]] as const) {
          await task(agent, "select-only combobox", async () => {
            const ref = (await agent.read()).of("combo", "Seat class");
            await act(
              d,
              agent,
              K,
              { verb: "set-value", ref, value },
              { seat: value },
              new RegExp(
                `combo "Seat class".* val="${value}"`,
              ),
            );
          });
        }
        const ref = (await cli.read()).of("combo", "Seat class");
        const missing = await cli.call({ verb: "set-value", ref, value: "Window seat" });
        assert.equal(missing.ok, false, missing.text);
        assert.equal(missing.code, "ELEMENT_NOT_FOUND", missing.text);
        assert.match(missing.text, /Economy, Premium economy, Business, First/);
        assert.equal((await pageState(d, K)).seat, "First");
      },
    );

    await t.step("editable combobox: type a prefix, pick the suggestion", async () => {
      for (const [agent, prefix, city] of [[cli, "Li", "Lisbon"], [mcp, "Ro", "Rome"]] as const) {
        await task(agent, "editable combobox", async () => {
          const field = (await agent.read()).of("combo", "Destination");
          await act(d, agent, K, { verb: "type", ref: field, text: prefix }, {}, /expanded/);
          const option = (await agent.read()).of("option", city);
          await act(d, agent, K, { verb: "click", ref: option }, { city });
          const typed = (await agent.read()).items.find((p) => p.ref === field);
          assert.match(String(typed?.line), new RegExp(`val="${city}"`));
        });
        // Clear the field for the next agent, as a user would.
        const field = (await cli.read()).of("combo", "Destination");
        await cli.call({ verb: "key", combo: "ctrl+a", ref: field });
        await cli.call({ verb: "key", combo: "BackSpace", ref: field });
      }
    });

    await t.step({
      // The browser reports the focus on the active option: the combo box still takes the keys.
      name: "editable combobox: type a prefix, take the suggestion with Down and Return",
      fn: async () => {
        await task(cli, "editable combobox by keys", async () => {
          const field = (await cli.read()).of("combo", "Destination");
          await act(d, cli, K, { verb: "type", ref: field, text: "Ba" }, {}, /val="Ba"/);
          const down = await cli.call({ verb: "key", combo: "Down", ref: field });
          assert.ok(down.ok, down.text);
          await act(
            d,
            cli,
            K,
            { verb: "key", combo: "Return", ref: field },
            { city: "Barcelona" },
            /val="Barcelona"/,
          );
        });
      },
    });

    await t.step({
      // An input that is itself the combo box takes the text typed, as a user types it.
      name: "editable combobox: set-value types the text",
      async fn() {
        const ref = (await cli.read()).of("combo", "Destination");
        await act(
          d,
          cli,
          K,
          { verb: "set-value", ref, value: "Paris" },
          // The text is typed, then the suggestion of exactly that name is clicked.
          { city: "Paris" },
          /val="Paris"/,
        );
      },
    });

    await t.step("single-select listbox: pick a meal", async () => {
      for (const [agent, meal] of [[cli, "Vegan"], [mcp, "Gluten free"]] as const) {
        await task(agent, "single-select listbox", async () => {
          const ref = (await agent.read()).of("option", meal);
          await act(
            d,
            agent,
            K,
            { verb: "click", ref },
            { meal: meal.replace(/ /g, "_") },
            new RegExp(
              `option "${meal}" selected`,
            ),
          );
        });
      }
    });

    await t.step("multi-select listbox: add extras, then drop one", async () => {
      await task(cli, "multi-select listbox", async () => {
        const refs = await cli.read();
        const wifi = refs.of("option", "Wifi");
        await act(d, cli, K, { verb: "click", ref: wifi }, { extras: "Wifi" }, /selected/);
        await act(d, cli, K, { verb: "click", ref: refs.of("option", "Checked bag") }, {
          extras: "Wifi+Checked_bag",
        }, /option "Checked bag" selected/);
      });
      await task(mcp, "multi-select listbox", async () => {
        const refs = await mcp.read();
        const wifi = refs.of("option", "Wifi");
        const off = await act(d, mcp, K, { verb: "click", ref: wifi }, { extras: "Checked_bag" });
        assert.doesNotMatch(off, /option "Wifi" selected/);
        await act(d, mcp, K, { verb: "click", ref: refs.of("option", "Lounge access") }, {
          extras: "Checked_bag+Lounge_access",
        }, /selected/);
      });
    });
    console.log(tally.splice(0).join("\n"));
  },
});

Deno.test({
  name:
    "aria corpus, menus: menubar with hover submenus, menu button, tabs, disclosure, modal dialog",
  ...live,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: `${CORPUS}menus.html` });
    const K = "page";
    await loaded(d, K);
    const cli = cliAgent(d);
    await using mcp = await mcpAgent(d);

    await t.step("menubar: open a submenu with a click, then choose its item", async () => {
      for (
        const [agent, top, item] of [[cli, "Admissions", "Tuition"], [
          mcp,
          "About",
          "History",
        ]] as const
      ) {
        await task(agent, "menubar by pointer", async () => {
          const ref = (await agent.read()).of("menuitem", top);
          await act(d, agent, K, { verb: "click", ref }, {}, /expanded/);
          const sub = (await agent.read()).of("menuitem", item);
          await act(d, agent, K, { verb: "click", ref: sub }, { page: item });
        });
      }
    });

    await t.step(
      "menubar: the same with keys (the pointer's hover must not move the focus)",
      async () => {
        await task(cli, "menubar by keys", async () => {
          const ref = (await cli.read()).of("menuitem", "Academics");
          await act(d, cli, K, { verb: "key", combo: "Down", ref }, {}, /expanded/);
          const down = await cli.call({ verb: "key", combo: "Down" });
          assert.ok(down.ok, down.text);
          assert.match(down.text, /menuitem "Colleges"/);
          await act(d, cli, K, { verb: "key", combo: "Return" }, { page: "Library" }, /"Library"/);
        });
      },
    );

    await t.step("menu button: open it, choose an action", async () => {
      for (const [agent, item] of [[cli, "Export"], [mcp, "Archive"]] as const) {
        await task(agent, "menu button", async () => {
          const ref = (await agent.read()).of("btn", "Actions");
          await act(d, agent, K, { verb: "click", ref }, {}, /btn "Actions" expanded/);
          const sub = (await agent.read()).of("menuitem", item);
          await act(d, agent, K, { verb: "click", ref: sub }, { action: item });
        });
      }
    });

    await t.step("tabs: select by click, move with arrow keys", async () => {
      await task(cli, "tabs", async () => {
        const refs = await cli.read();
        const graduate = refs.of("tab", "Graduate");
        await act(
          d,
          cli,
          K,
          { verb: "click", ref: graduate },
          { tab: "Graduate" },
          /tab "Graduate" selected/,
        );
        await act(d, cli, K, { verb: "key", combo: "Right", ref: graduate }, { tab: "Online" });
      });
      await task(mcp, "tabs", async () => {
        const ref = (await mcp.read()).of("tab", "Undergraduate");
        await act(d, mcp, K, { verb: "click", ref }, { tab: "Undergraduate" }, /selected/);
      });
    });

    await t.step("disclosure: open and close the answer", async () => {
      await task(cli, "disclosure", async () => {
        const ref = (await cli.read()).of("btn", "Opening hours");
        await act(d, cli, K, { verb: "click", ref }, { faq: "open" }, /"Opening hours" expanded/);
      });
      await task(mcp, "disclosure", async () => {
        const ref = (await mcp.read()).of("btn", "Opening hours");
        await act(
          d,
          mcp,
          K,
          { verb: "click", ref },
          { faq: "closed" },
          /"Opening hours" collapsed/,
        );
      });
    });

    await t.step(
      "modal dialog: open it, fill the confirmation, confirm; cancel with Escape",
      async () => {
        await task(cli, "modal dialog", async () => {
          const ref = (await cli.read()).of("btn", "Delete account");
          await act(d, cli, K, { verb: "click", ref }, { dialog: "open" });
          const refs = await cli.read();
          const name = refs.of("input", "Type the account name");
          await act(d, cli, K, { verb: "type", ref: name, text: "rita" }, {}, /val="rita"/);
          await act(d, cli, K, { verb: "click", ref: refs.of("btn", "Delete") }, {
            dialog: "closed",
            deleted: "rita",
          });
        });
        await task(mcp, "modal dialog", async () => {
          const ref = (await mcp.read()).of("btn", "Delete account");
          await act(d, mcp, K, { verb: "click", ref }, { dialog: "open" });
          await act(d, mcp, K, { verb: "key", combo: "Escape" }, {
            dialog: "closed",
            deleted: "rita",
          });
        });
      },
    );
    console.log(tally.splice(0).join("\n"));
  },
});

Deno.test({
  name: "aria corpus, data: tree view, treegrid, grid with in-cell buttons, sortable table",
  ...live,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: `${CORPUS}data.html` });
    const K = "order";
    await loaded(d, K);
    const cli = cliAgent(d);
    await using mcp = await mcpAgent(d);

    await t.step("tree view: open a folder, select a file in it", async () => {
      for (
        const [agent, folder, file] of [[cli, "src", "main.ts"], [mcp, "docs", "faq.md"]] as const
      ) {
        await task(agent, "tree view", async () => {
          const ref = (await agent.read()).of("treeitem", folder);
          await act(d, agent, K, { verb: "click", ref }, {}, new RegExp(`"${folder}" expanded`));
          const leaf = (await agent.read()).of("treeitem", file);
          await act(d, agent, K, { verb: "click", ref: leaf }, { selected: file });
        });
      }
    });

    await t.step("treegrid: expand a thread, collapse it with Left", async () => {
      await task(cli, "treegrid", async () => {
        const ref = (await cli.read()).of("row", "Budget review");
        await act(d, cli, K, { verb: "click", ref }, { thread: "Budget_review" }, /expanded/);
        await act(
          d,
          cli,
          K,
          { verb: "key", combo: "Left", ref },
          { thread: "closed" },
          /collapsed/,
        );
      });
      await task(mcp, "treegrid", async () => {
        const ref = (await mcp.read()).of("row", "Offsite plan");
        await act(d, mcp, K, { verb: "click", ref }, { thread: "Offsite_plan" }, /expanded/);
      });
    });

    await t.step("grid: the in-cell buttons add and remove (they act on the pointer)", async () => {
      await task(cli, "grid with in-cell buttons", async () => {
        const refs = await cli.read();
        const add = refs.items.find((p) => /eraser\/add-one$/.test(p.ref))?.ref;
        assert.ok(add, refs.text);
        await act(d, cli, K, { verb: "click", ref: add }, { cart: "Pencil:1+Eraser:2+Ruler:1" });
        const remove = refs.items.find((p) => /pencil\/remove$/.test(p.ref))?.ref;
        assert.ok(remove, refs.text);
        await act(d, cli, K, { verb: "click", ref: remove }, { cart: "Eraser:2+Ruler:1" });
      });
      await task(mcp, "grid with in-cell buttons", async () => {
        const refs = await mcp.read();
        const add = refs.items.find((p) => /ruler\/add-one$/.test(p.ref))?.ref;
        assert.ok(add, refs.text);
        await act(d, mcp, K, { verb: "click", ref: add }, { cart: "Eraser:2+Ruler:2" });
      });
    });

    await t.step("sortable table: sort by age, then reverse it", async () => {
      await task(cli, "sortable table", async () => {
        const ref = (await cli.read()).of("btn", "Age");
        const sorting = await act(d, cli, K, { verb: "click", ref, diff: true }, {
          sort: "Age:ascending",
          order: "Bruno+Chen+Alice",
        });
        // A reorder is a change: the rows that moved are named.
        assert.match(sorting, /alice\] moved: \d+ -> \d+/);
        assert.match(sorting, /sort: none -> "ascending"/);
        const sorted = await cli.read();
        assert.match(sorted.text, /colheader "Age" sort=ascending/);
      });
      await task(mcp, "sortable table", async () => {
        const ref = (await mcp.read()).of("btn", "Age");
        await act(d, mcp, K, { verb: "click", ref }, {
          sort: "Age:descending",
          order: "Alice+Chen+Bruno",
        });
      });
    });
    console.log(tally.splice(0).join("\n"));
  },
});
