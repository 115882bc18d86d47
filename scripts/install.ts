/**
 * `deno task install`: installs the `desktop` command so that it keeps
 * working when this clone is removed. The sources (cli.ts, mod.ts, src/,
 * deno.json, deno.lock) and the running `deno` are copied to a data
 * directory, their dependencies are cached there and then, and a small
 * launcher script goes into a bin directory:
 *
 *   --dest DIR   where the copy goes (default: $XDG_DATA_HOME/desktop, else
 *                ~/.local/share/desktop)
 *   --bin DIR    where the `desktop` launcher goes (default: ~/.local/bin)
 *
 * It prints one line: where the command is, and how to put it on PATH when
 * that directory is not on it.
 *
 * @module
 */

const HOME = Deno.env.get("HOME") ?? "";
const ROOT = new URL("../", import.meta.url).pathname;

function arg(name: string): string | undefined {
  const i = Deno.args.indexOf(name);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const dest = arg("--dest") ??
  `${Deno.env.get("XDG_DATA_HOME") || `${HOME}/.local/share`}/desktop`;
const bin = arg("--bin") ?? `${HOME}/.local/bin`;

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    const src = `${from}/${e.name}`;
    const dst = `${to}/${e.name}`;
    if (e.isDirectory) await copyTree(src, dst);
    else if (e.isFile) await Deno.copyFile(src, dst);
  }
}

// A fresh copy: files of an older version must not linger.
await Deno.remove(dest, { recursive: true }).catch(() => {});
await Deno.mkdir(`${dest}/bin`, { recursive: true });
for (const f of ["cli.ts", "mod.ts", "deno.json", "deno.lock"]) {
  await Deno.copyFile(`${ROOT}${f}`, `${dest}/${f}`);
}
await copyTree(`${ROOT}src`, `${dest}/src`);
// The launcher runs this deno, wherever it came from (scripts/run may have put it in the clone).
const deno = `${dest}/bin/deno`;
await Deno.copyFile(Deno.execPath(), deno);
await Deno.chmod(deno, 0o755);

// Dependencies are fetched now, so that runs print nothing but their own output.
const cache = await new Deno.Command(deno, {
  args: ["cache", "--quiet", "--config", `${dest}/deno.json`, `${dest}/cli.ts`, `${dest}/mod.ts`],
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (!cache.success) Deno.exit(cache.code || 1);

await Deno.mkdir(bin, { recursive: true });
const launcher = `${bin}/desktop`;
const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
await Deno.writeTextFile(
  launcher,
  `#!/bin/sh\n# desktop, installed by deno task install from a copy in ${dest}\n` +
    `exec ${q(deno)} run --allow-all --quiet --no-prompt --config ${q(`${dest}/deno.json`)} ` +
    `${q(`${dest}/cli.ts`)} "$@"\n`,
);
await Deno.chmod(launcher, 0o755);

const onPath = (Deno.env.get("PATH") ?? "").split(":").includes(bin);
console.log(
  onPath
    ? `installed: ${launcher}`
    : `installed: ${launcher}; put it on PATH with: export PATH="${bin}:$PATH"`,
);
