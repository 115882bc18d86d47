import assert from "node:assert/strict";
import {
  findUnregistered,
  toolkitOfMaps,
  unregisteredWithWindows,
} from "../../src/platform/linux/unregistered.ts";

const lib = (path: string) => `7f3a0000-7f3a1000 r-xp 00000000 08:01 42 ${path}\n`;

Deno.test("unregistered: the toolkit comes from the libraries a process maps", () => {
  const gtk2 = lib("/usr/lib/x86_64-linux-gnu/libgtk-x11-2.0.so.0.2400.33") +
    lib("/usr/lib/x86_64-linux-gnu/libgdk-x11-2.0.so.0");
  assert.equal(toolkitOfMaps(gtk2, "hexchat")?.toolkit, "GTK 2");
  assert.match(toolkitOfMaps(gtk2, "hexchat")!.remedy, /GTK_MODULES=gail:atk-bridge/);
  assert.equal(toolkitOfMaps(lib("/usr/lib/libQt5Gui.so.5.15.8"), "kcalc")?.toolkit, "Qt");
  assert.equal(toolkitOfMaps(lib("/usr/lib/jvm/lib/libawt_xawt.so"), "java")?.toolkit, "Java");
  assert.equal(toolkitOfMaps(lib("/usr/lib/libgtk-3.so.0"), "mousepad")?.toolkit, "GTK");
  // Chromium maps GTK 3 for its dialogs; its name tells what it is.
  const chromium = lib("/usr/lib/chromium/chromium") + lib("/usr/lib/libgtk-3.so.0");
  assert.equal(toolkitOfMaps(chromium, "chromium")?.toolkit, "Chromium");
  // Toolkits with no accessibility at all are named, and say so.
  const tk = toolkitOfMaps(lib("/usr/lib/x86_64-linux-gnu/libtk8.6.so"), "wish");
  assert.deepEqual([tk?.toolkit, tk?.canJoin], ["Tk", false]);
  assert.equal(
    toolkitOfMaps(lib("/usr/lib/x86_64-linux-gnu/libXaw7.so.7"), "xterm")?.canJoin,
    false,
  );
  // A process with no GUI toolkit is not an app that could join.
  assert.equal(toolkitOfMaps(lib("/usr/lib/libc.so.6"), "bash"), undefined);
});

Deno.test("unregistered: a process on the bus, or of no GUI, is never reported", () => {
  // This test process maps no GUI toolkit; asked by its own pid it is skipped.
  assert.equal(findUnregistered({ pid: Deno.pid }, new Set()), undefined);
  assert.equal(findUnregistered({ pid: 1 }, new Set([1])), undefined);
  // An empty scope names nothing to look for.
  assert.equal(findUnregistered({}, new Set()), undefined);
});

Deno.test("unregistered: pids with windows that are on the bus, or show no GUI, are not listed", () => {
  // This process shows no window and maps no GUI toolkit; pid 1 is taken as registered.
  assert.deepEqual(unregisteredWithWindows([Deno.pid, 1], new Set([1])), []);
});
