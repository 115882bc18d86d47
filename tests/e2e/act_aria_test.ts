/**
 * Actions on ARIA widgets nobody here wrote the accessibility of, as a user
 * would drive them (tests/fixtures/web/aria_widgets.html in Chromium), through
 * the CLI and through MCP. Witness: the page's own state, which it writes
 * into its title after every change, read through pyatspi (the window's name).
 *
 * - a row action shown on hover ignores an accessible press: the click is made
 *   again with the pointer and the ok line says so; the row is removed once;
 * - focus is verified by the element's focused state (no "unverified");
 * - ok lines carry the element's state and value (checked, val=);
 * - type --replace clears the field first (was: appended);
 * - key --repeat 7 after Home delivers each key once (the page counts 1 + 7);
 * - set-value moves an ARIA slider and spin button with keys, and chooses from
 *   a select-only combo box's popup; a missing option names the real ones.
 */

import assert from "node:assert/strict";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cliError, runCli } from "../harness/cli.ts";
import { pyatspiJson } from "../harness/pyatspi.ts";
import { eventually } from "../harness/tree.ts";
import { mcpClient } from "./mutation_scenarios.ts";

const PAGE = `${REPO_ROOT}tests/fixtures/web/aria_widgets.html`;

/** Generous bound for one command (a few seconds normally). */
const COMMAND_MS = 30_000;

/** The page's state as it wrote it into its title, read through pyatspi. */
async function pageState(d: TestDesktop): Promise<Record<string, string>> {
  const title = await pyatspiJson<string>(
    d,
    `print(json.dumps(next((w.name for w in app if w is not None and "volume=" in w.name), "")))`,
  );
  return Object.fromEntries(
    title.replace(/ - Chromium$/, "").split(" ").map((kv) => kv.split("=", 2) as [string, string]),
  );
}

/** What pyatspi reads of an element named `name` with role `role`: checked state and text. */
function widget(
  d: TestDesktop,
  role: string,
  name: string,
): Promise<{ checked: boolean; focused: boolean; text: string }> {
  return pyatspiJson(
    d,
    `
o = next(o for o in walk(app) if o.getRoleName() == ${JSON.stringify(role)} and o.name.strip() == ${
      JSON.stringify(name)
    })
try:
    text = o.queryText().getText(0, -1)
except NotImplementedError:
    text = ""
print(json.dumps({"checked": o.getState().contains(pyatspi.STATE_CHECKED),
                  "focused": o.getState().contains(pyatspi.STATE_FOCUSED), "text": text}))
`,
  );
}

async function loaded(d: TestDesktop): Promise<void> {
  await eventually("the page's widgets", async () => {
    const res = await runCli(d, ["find", "--app", d.appName, "--ref", "choose-a-fruit"]);
    return res.code === 0 ? true : undefined;
  }, 60_000);
}

/** Runs the CLI, asserting it succeeded within the bound; returns its ok line. */
async function ok(d: TestDesktop, args: string[]): Promise<string> {
  const t0 = Date.now();
  const res = await runCli(d, [...args, "--app", d.appName]);
  assert.equal(res.code, 0, `desktop ${args.join(" ")}\n${res.stdout}\n${res.stderr}`);
  assert.ok(Date.now() - t0 < COMMAND_MS, `${args.join(" ")} took ${Date.now() - t0} ms`);
  return res.stdout.trim();
}

Deno.test({
  name: "aria widgets (CLI): pointer fallback, verified focus, state in ok lines, --replace, " +
    "--repeat, set-value by keys and popup",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    await loaded(d);

    await t.step("a click an accessible press ignores is made with the pointer", async () => {
      // A row action shown on hover: the accessible press sends no pointer movement.
      const click = await ok(d, ["click", "--ref", "milk/remove"]);
      assert.match(click, /via input \(left x1; the accessible press had no visible effect\)/);
      assert.doesNotMatch(click, /unverified/);
      assert.equal((await pageState(d)).removed, "Milk");
    });

    await t.step("a listbox option that picks what the pointer is over is clicked so", async () => {
      const option = await ok(d, ["click", "--ref", "toppings/olives"]);
      assert.match(option, /option "Olives" selected.* via input/);
      assert.equal((await pageState(d)).toppings, "Olives");
    });

    await t.step("focus is verified by the element's focused state", async () => {
      const focus = await ok(d, ["focus", "--ref", "city"]);
      assert.match(focus, /input "City:" focused val="Paris"/);
      assert.doesNotMatch(focus, /unverified/);
      assert.equal((await widget(d, "entry", "City:")).focused, true);
      // A button's focus is its only change: still verified (was "only the keyboard focus moved").
      const button = await ok(d, ["focus", "--ref", "tea/remove"]);
      assert.match(button, /btn "Remove" focused via/);
      assert.doesNotMatch(button, /unverified/);
      assert.equal((await pageState(d)).removed, "Milk");
    });

    await t.step("a click's ok line says the checked state", async () => {
      const check = await ok(d, ["click", "--ref", "all-condiments"]);
      assert.match(check, /chk "All condiments" checked/);
      assert.equal((await widget(d, "check box", "All condiments")).checked, true);
    });

    await t.step("type --replace clears the field; type says what it holds", async () => {
      const typed = await ok(d, ["type", "--ref", "city", "--replace", "Lyon"]);
      assert.match(typed, /val="Lyon"/);
      assert.equal((await widget(d, "entry", "City:")).text, "Lyon");
      // Without --replace, type appends, and says what the field holds.
      assert.match(await ok(d, ["type", "--ref", "city", " Sud"]), /val="Lyon Sud"/);
    });

    await t.step("key --repeat delivers each key once (Home + 7 Right)", async () => {
      await ok(d, ["key", "Home", "--ref", "key-counter"]);
      const right = await ok(d, ["key", "Right", "--repeat", "7", "--ref", "key-counter"]);
      assert.match(right, /via input \(Right x7\)/);
      const counted = await pageState(d);
      assert.deepEqual([counted.keys, counted.home, counted.right, counted.caret], [
        "8",
        "1",
        "7",
        "7",
      ]);
      const tooMany = await runCli(d, ["key", "Right", "--repeat", "101", "--app", d.appName]);
      assert.equal(tooMany.code, 2, tooMany.stderr);
      assert.equal(cliError(tooMany).code, "INVALID_ARGS");
      assert.equal((await pageState(d)).keys, "8");
    });

    await t.step(
      "a run file's Home and seven Rights move a slider by 7, each key once",
      async () => {
        const file = `${d.env.XDG_RUNTIME_DIR}/keys.yaml`;
        const right = Array(7).fill("  - key: { combo: Right, ref: volume }\n").join("");
        await Deno.writeTextFile(
          file,
          `app: ${d.appName}\nsteps:\n  - key: { combo: Home, ref: volume }\n${right}`,
        );
        const t0 = Date.now();
        const run = await runCli(d, ["run", file]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        assert.ok(Date.now() - t0 < 8 * COMMAND_MS);
        assert.equal((await pageState(d)).volume, "7");
        // The same with one step and --repeat.
        await Deno.writeTextFile(
          file,
          `app: ${d.appName}\nsteps:\n  - key: { combo: Home, ref: volume }\n` +
            "  - key: { combo: Right, ref: volume, repeat: 5 }\n",
        );
        const again = await runCli(d, ["run", file]);
        assert.equal(again.code, 0, again.stdout + again.stderr);
        assert.equal((await pageState(d)).volume, "5");
      },
    );

    await t.step("set-value moves an ARIA slider and spin button with keys", async () => {
      assert.match(await ok(d, ["set-value", "--ref", "volume", "7"]), /slider "Volume".* val="7"/);
      assert.equal((await pageState(d)).volume, "7");
      assert.match(await ok(d, ["set-value", "--ref", "guests", "17"]), /spin "Guests".* val="17"/);
      assert.match(await ok(d, ["set-value", "--ref", "volume", "0"]), /val="0"/);
      // A value in words (aria-valuetext) is found with the keys too.
      const month = await ok(d, ["set-value", "--ref", "month", "July"]);
      assert.match(month, /slider "Month".* val="7" valtext="July"/);
      const state = await pageState(d);
      assert.deepEqual([state.volume, state.guests, state.month], ["0", "17", "7"]);
      const none = await runCli(d, ["set-value", "--ref", "month", "Smarch", "--app", d.appName]);
      assert.equal(none.code, 1, none.stderr);
      assert.equal(cliError(none).code, "ACTION_FAILED");
      assert.match(String(cliError(none).suggestion), /January, February, .*December/);
      // Left as it was.
      assert.equal((await pageState(d)).month, "7");
    });

    await t.step("set-value chooses from a select-only combo box's popup", async () => {
      const fruit = await ok(d, ["set-value", "--ref", "choose-a-fruit", "Banana"]);
      assert.match(fruit, /val="Banana"/);
      assert.equal((await pageState(d)).fruit, "Banana");
      const missing = await runCli(d, [
        "set-value",
        "--ref",
        "choose-a-fruit",
        "Kiwi",
        "--app",
        d.appName,
      ]);
      assert.equal(missing.code, 1, missing.stderr);
      const err = cliError(missing);
      assert.equal(err.code, "ELEMENT_NOT_FOUND");
      assert.match(String(err.suggestion), /Apple, Banana, Cherry/);
      assert.equal((await pageState(d)).fruit, "Banana");
    });
  },
});

Deno.test({
  name: "aria widgets (MCP): the same policy through the generated tools (repeat, replace, " +
    "set-value, pointer fallback)",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using d = await startDesktop({ app: "chromium", url: PAGE });
    await loaded(d);
    const { client, call: mcp } = await mcpClient(d);
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await mcp(name, { app: d.appName, ...args });
      assert.equal(res.isError, false, `${name} ${JSON.stringify(args)}: ${res.text}`);
      return res.text;
    };
    try {
      assert.match(await call("click", { ref: "tea/remove" }), /had no visible effect/);
      assert.equal((await pageState(d)).removed, "Tea");
      await call("key", { combo: "Home", ref: "key-counter" });
      await call("key", { combo: "Right", repeat: 7, ref: "key-counter" });
      const counted = await pageState(d);
      assert.deepEqual([counted.keys, counted.right, counted.caret], ["8", "7", "7"]);
      assert.match(await call("type", { ref: "city", text: "Nice", replace: true }), /val="Nice"/);
      assert.equal((await widget(d, "entry", "City:")).text, "Nice");
      await call("set_value", { ref: "guests", value: "9" });
      await call("set_value", { ref: "choose-a-fruit", value: "Cherry" });
      const state = await pageState(d);
      assert.deepEqual([state.guests, state.fruit], ["9", "Cherry"]);
    } finally {
      await client.close();
    }
  },
});
