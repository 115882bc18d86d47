/**
 * sway's tree to windows: each leaf with a pid, its content rect, and the
 * origin of its surface (a client-side decorated window's shadow lies
 * before its geometry), from nested and floating containers.
 */

import assert from "node:assert/strict";
import { windowsOfTree } from "../../src/platform/linux/wayland/sway_ipc.ts";

const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

Deno.test("sway windows: tiled and floating leaves, with their surface origin", () => {
  const tree = {
    id: 1,
    type: "root",
    rect: rect(0, 0, 1280, 800),
    nodes: [{
      id: 3,
      type: "output",
      name: "HEADLESS-1",
      rect: rect(0, 0, 1280, 800),
      nodes: [{
        id: 4,
        type: "workspace",
        name: "1",
        rect: rect(0, 0, 1280, 800),
        nodes: [
          {
            id: 5,
            type: "con",
            name: "Form",
            pid: 100,
            app_id: "python3",
            focused: true,
            rect: rect(0, 0, 640, 800),
            window_rect: rect(2, 2, 636, 796),
            geometry: rect(0, 0, 636, 796),
          },
          {
            id: 6,
            type: "con",
            name: "Notes",
            pid: 101,
            app_id: null,
            window_properties: { class: "notes" },
            rect: rect(640, 0, 640, 800),
            window_rect: rect(2, 2, 636, 796),
            geometry: rect(0, 0, 636, 796),
          },
        ],
        floating_nodes: [{
          id: 7,
          type: "floating_con",
          name: "Dialog",
          pid: 100,
          rect: rect(400, 300, 300, 200),
          window_rect: rect(0, 0, 300, 200),
          geometry: rect(26, 23, 300, 200),
        }],
      }],
    }],
  };
  assert.deepEqual(windowsOfTree(tree), [
    {
      id: 5,
      pid: 100,
      title: "Form",
      appId: "python3",
      rect: [2, 2, 636, 796],
      origin: { x: 2, y: 2 },
      focused: true,
    },
    {
      id: 6,
      pid: 101,
      title: "Notes",
      appId: "notes",
      rect: [642, 2, 636, 796],
      origin: { x: 642, y: 2 },
      focused: false,
    },
    {
      id: 7,
      pid: 100,
      title: "Dialog",
      appId: "",
      rect: [400, 300, 300, 200],
      origin: { x: 374, y: 277 },
      focused: false,
    },
  ]);
});

Deno.test("sway windows: containers without a pid are not windows", () => {
  assert.deepEqual(
    windowsOfTree({ id: 1, nodes: [{ id: 2, rect: rect(0, 0, 10, 10), nodes: [] }] }),
    [],
  );
});
