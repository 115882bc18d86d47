import assert from "node:assert/strict";
import {
  execArgv,
  parseDesktopEntry,
  splitCommand,
} from "../../src/platform/linux/desktop_entry.ts";
import { orderWindowOps } from "../../src/apps/apps.ts";

Deno.test("desktop entry: the main group only, applications only", () => {
  const text = [
    "[Desktop Entry]",
    "Name=Calculator",
    "Exec=gnome-calculator",
    "Type=Application",
    "NoDisplay=false",
    "[Desktop Action ShortMode]",
    "Name=Short",
    "Exec=gnome-calculator --mode=short",
  ].join("\n");
  assert.deepEqual(parseDesktopEntry("org.gnome.Calculator.desktop", text), {
    id: "org.gnome.Calculator.desktop",
    name: "Calculator",
    exec: "gnome-calculator",
    hidden: false,
  });
  assert.equal(parseDesktopEntry("l.desktop", "[Desktop Entry]\nType=Link\nExec=x\n"), null);
  assert.equal(parseDesktopEntry("n.desktop", "[Desktop Entry]\nName=N\n"), null);
  assert.equal(
    parseDesktopEntry("h.desktop", "[Desktop Entry]\nExec=h\nNoDisplay=true\n")?.hidden,
    true,
  );
});

Deno.test("desktop entry: Exec field codes go, quoting and %% are kept", () => {
  assert.deepEqual(execArgv("mousepad %U"), ["mousepad"]);
  assert.deepEqual(execArgv(`sh -c "echo 'a b' %f"`), ["sh", "-c", "echo 'a b' "]);
  assert.deepEqual(execArgv("app --rate=50%% --file=%f"), ["app", "--rate=50%", "--file="]);
  assert.deepEqual(splitCommand(`a "" 'b c' d\\ e`), ["a", "", "b c", "d e"]);
  assert.deepEqual(splitCommand("  "), []);
});

Deno.test("window operations apply restore first and close last", () => {
  const order = orderWindowOps([
    { kind: "close" },
    { kind: "raise" },
    { kind: "resize", w: 1, h: 1 },
    { kind: "restore" },
    { kind: "move", x: 0, y: 0 },
  ]).map((o) => o.kind);
  assert.deepEqual(order, ["restore", "move", "resize", "raise", "close"]);
});
