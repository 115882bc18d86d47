/**
 * `desktop fill` and `desktop run` on a real form (Chromium), with the page's
 * own record of what was submitted (read by pyatspi) as the witness.
 */

import assert from "node:assert/strict";
import { cliError, runCli } from "../harness/cli.ts";
import { hasDesktopTools, REPO_ROOT, startDesktop, type TestDesktop } from "../harness/desktop.ts";
import { cli } from "../harness/gtk_suite.ts";
import { eventually } from "../harness/tree.ts";

const FORM = `${REPO_ROOT}tests/fixtures/web/signup.html`;

/** The status heading's text, as pyatspi reads it from the page. */
async function status(d: TestDesktop): Promise<string> {
  const script = `
import pyatspi
def walk(a):
    for c in a:
        if c is None: continue
        yield c
        yield from walk(c)
def text(c):
    try:
        t = c.queryText()
        return t.getText(0, t.characterCount)
    except Exception:
        return ""
for app in pyatspi.Registry.getDesktop(0):
    if app is None or app.name != ${JSON.stringify(d.appName)}: continue
    for c in walk(app):
        for s in (c.name or "", text(c)):
            if s.startswith(("Not submitted", "Submitted")):
                print(s)
                raise SystemExit(0)
`;
  const out = await new Deno.Command("timeout", {
    args: ["60", "/usr/bin/python3", "-c", script],
    env: d.env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test({
  name: "fill and run drive a real form in Chromium",
  ignore: !hasDesktopTools(),
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using d = await startDesktop({ app: "chromium", url: FORM, firstContactDelayMs: 3000 });
    const dir = await Deno.makeTempDir({ prefix: "desktop-run-test-" });
    const app = ["--app", d.appName];
    try {
      await cli(d, ["wait", ...app, "--for-ref", "form/email", "--timeout", "30000"]);
      await t.step("fill sets every field from one read and reports what each holds", async () => {
        const json = JSON.parse(
          await cli(d, [
            "fill",
            ...app,
            "--field",
            "form/email=ada@example.com",
            "--field",
            "form/full-name=Ada Lovelace",
            "--field",
            "form/password=hunter22",
            "--field",
            "form/i-agree=true",
            "--format",
            "json",
          ]),
        );
        assert.equal(json.ok, true, JSON.stringify(json));
        const byField = Object.fromEntries(
          json.fields.map((f: { field: string; element: Record<string, unknown> }) => [
            f.field,
            f.element,
          ]),
        );
        assert.equal(byField["form/email"].v, "ada@example.com");
        assert.equal(byField["form/full-name"].v, "Ada Lovelace");
        assert.equal(byField["form/password"].sec, true);
        assert.equal(byField["form/password"].v, undefined, "a secret value was reported");
        assert.equal(byField["form/i-agree"].chk, true);
        await cli(d, ["click", ...app, "--ref", "form/submit"]);
        await eventually("the page to record the submission", async () => {
          const s = await status(d);
          return s.startsWith("Submitted") ? s : undefined;
        }).then((s) =>
          assert.equal(
            s,
            "Submitted ada@example.com / Ada Lovelace / password 8 chars / agree true",
          )
        );
      });

      await t.step("fill with a ref that does not resolve sets nothing", async () => {
        const res = await runCli(d, [
          "fill",
          ...app,
          "--field",
          "form/email=changed@example.com",
          "--field",
          "form/no-such-field=x",
        ]);
        assert.equal(cliError(res).code, "ELEMENT_NOT_FOUND");
        const [email] = JSON.parse(
          await cli(d, ["find", ...app, "--ref", "form/email", "--format", "json"]),
        );
        assert.equal(email.v, "ada@example.com");
      });

      await t.step("run: steps in YAML, dry run first, then for real", async () => {
        const file = `${dir}/steps.yaml`;
        await Deno.writeTextFile(
          file,
          [
            `app: ${d.appName}`,
            "steps:",
            "  - fill: { fields: { form/email: grace@example.com, form/full-name: Grace Hopper } }",
            "  - set-value: { ref: form/i-agree, value: 'false' }",
            "  - expect: { ref: form/full-name, value: Grace Hopper }",
            "  - click: form/submit",
            "  - wait: { text: Submitted grace }",
            "  - expect: { ref: form/i-agree, checked: false }",
            "",
          ].join("\n"),
        );
        const dry = JSON.parse(await cli(d, ["run", file, "--dry-run", "--format", "json"]));
        assert.equal(dry.ok, true, JSON.stringify(dry));
        assert.equal(dry.steps[3].element.ref, "form/submit");
        assert.equal(
          await status(d),
          "Submitted ada@example.com / Ada Lovelace / password 8 chars / agree true",
        );

        const text = await cli(d, ["run", file]);
        assert.match(text, /ok: every step done \(6 steps\)/);
        await eventually("the second submission", async () => {
          const s = await status(d);
          return s.includes("grace") ? s : undefined;
        }).then((s) =>
          assert.equal(
            s,
            "Submitted grace@example.com / Grace Hopper / password 8 chars / agree false",
          )
        );
      });

      await t.step("run stops at the first failing step with its number and code", async () => {
        const file = `${dir}/failing.json`;
        await Deno.writeTextFile(
          file,
          JSON.stringify([
            { "set-value": { ref: "form/full-name", value: "Alan Turing" } },
            { expect: { ref: "form/full-name", value: "Someone Else" } },
            { "set-value": { ref: "form/email", value: "never@example.com" } },
          ]),
        );
        const res = await runCli(d, ["run", file, ...app, "--format", "json"]);
        assert.equal(res.code, 1);
        const err = cliError(res);
        assert.equal(err.code, "EXPECT_FAILED");
        assert.equal((err.details as { step: number }).step, 2);
        const report = JSON.parse(res.stdout);
        assert.deepEqual(report.steps.map((s: { ok: boolean }) => s.ok), [true, false]);
        const [email] = JSON.parse(
          await cli(d, ["find", ...app, "--ref", "form/email", "--format", "json"]),
        );
        assert.equal(email.v, "grace@example.com", "a step after the failure ran");

        const missing = JSON.stringify([{ click: "form/nowhere" }, { click: "form/submit" }]);
        await Deno.writeTextFile(`${dir}/missing.json`, missing);
        const dry = await runCli(d, [
          "run",
          `${dir}/missing.json`,
          ...app,
          "--dry-run",
          "--format",
          "json",
        ]);
        assert.equal(cliError(dry).code, "ELEMENT_NOT_FOUND");
        const dryReport = JSON.parse(dry.stdout);
        assert.deepEqual(dryReport.steps.map((s: { ok: boolean }) => s.ok), [false, true]);
      });

      await t.step("an unreadable or malformed run file is INVALID_ARGS", async () => {
        const gone = await runCli(d, ["run", `${dir}/no-such-file.yaml`]);
        assert.equal(gone.code, 2);
        assert.equal(cliError(gone).code, "INVALID_ARGS");
        await Deno.writeTextFile(`${dir}/bad.yaml`, "- click: [unclosed\n");
        assert.equal(cliError(await runCli(d, ["run", `${dir}/bad.yaml`])).code, "INVALID_ARGS");
        await Deno.writeTextFile(`${dir}/noverb.json`, JSON.stringify([{ jump: "x" }]));
        const noverb = cliError(await runCli(d, ["run", `${dir}/noverb.json`]));
        assert.equal(noverb.code, "INVALID_ARGS");
        assert.equal((noverb.details as { step: number }).step, 1);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
