/**
 * `launch` reads desktop entries as bounded regular files: a FIFO named
 * `*.desktop` among them (which would block a plain read for ever) is
 * skipped, and the app named by a real entry beside it still resolves.
 * Run in a child process under `timeout`, since a blocked read would block
 * the test's own thread.
 */

import assert from "node:assert/strict";
import { REPO_ROOT } from "../harness/desktop.ts";

Deno.test("launch: a FIFO among desktop entries is skipped, not read for ever", async () => {
  const data = await Deno.makeTempDir();
  try {
    const apps = `${data}/applications`;
    await Deno.mkdir(apps);
    await Deno.writeTextFile(
      `${apps}/hello-entry.desktop`,
      "[Desktop Entry]\nType=Application\nName=Hello Entry\nExec=/bin/true --hello\n",
    );
    const fifo = await new Deno.Command("mkfifo", { args: [`${apps}/a-pipe.desktop`] }).output();
    assert.equal(fifo.code, 0, "mkfifo");
    const script = `
      import { resolveLaunch } from "${REPO_ROOT}src/platform/linux/launch.ts";
      console.log(JSON.stringify(resolveLaunch("Hello Entry")));
    `;
    const res = await new Deno.Command("timeout", {
      args: ["20", Deno.execPath(), "eval", "--quiet", script],
      env: { XDG_DATA_HOME: data, XDG_DATA_DIRS: data },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const out = new TextDecoder().decode(res.stdout);
    assert.equal(res.code, 0, `exit ${res.code}: ${new TextDecoder().decode(res.stderr)}`);
    const target = JSON.parse(out);
    assert.deepEqual(target.argv, ["/bin/true", "--hello"]);
    assert.equal(target.name, "Hello Entry");
  } finally {
    await Deno.remove(data, { recursive: true });
  }
});
