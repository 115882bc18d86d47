#!/usr/bin/python3
"""Peer for bench/read_speed.ts: walks one app with pyatspi (what dogtail and
OSWorld use), collecting the attributes `desktop read` prints: role, name,
description, states, interfaces, extents, action names, text (of inputs and
of every leaf with the Text interface but named labels and headings) and
value, plus labelled-by and the same few object attributes. Hidden subtrees
(and documents that are not showing) are skipped by the same rule as ours.

Protocol: argv[1] is the app's pid. Each line "walk" on stdin runs one walk
("dump" also prints the nodes, in walk order),
timed inside this process (interpreter start-up excluded), and prints one
JSON line {"ms": float, "nodes": int}. "quit" ends.
"""
import json
import sys
import time

import pyatspi

TEXT_VALUE_ROLES = {61, 79, 52, 11}
NAMED_TEXT_ROLES = {29, 116, 83}
PASSIVE_ROLES = {20, 23, 29, 39, 50, 73, 75, 85, 110, 116}
DOCUMENT_ROLES = {82, 95, 94, 92, 93, 96}
SHOWING = int(pyatspi.STATE_SHOWING)
LABELLABLE_ROLES = {7, 11, 31, 43, 44, 45, 51, 52, 61, 62, 79, 40, 87}
ATTRIBUTE_KEYS = ("placeholder-text", "level", "tag", "id")
VISIBLE = int(pyatspi.STATE_VISIBLE)


def find_app(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.get_process_id() == pid:
            return app
    return None


PAGE_TAB = 37


def hidden(role, states, parent_role=None):
    if role in (23, 75):
        return False
    if not states:
        return False
    if VISIBLE not in states:
        return True
    # The content of a tab that is not selected (GTK's notebook pages: VISIBLE, not SHOWING).
    if parent_role == PAGE_TAB and SHOWING not in states:
        return True
    return role in DOCUMENT_ROLES and SHOWING not in states


def read_node(acc):
    role = int(acc.getRole())
    node = {
        "role": role,
        "name": acc.name or "",
        "description": acc.description or "",
        "states": [int(s) for s in acc.getState().getStates()],
    }
    ifaces = set(acc.get_interfaces())
    editable = "EditableText" in ifaces
    text_value = role in TEXT_VALUE_ROLES
    try:
        if "Component" in ifaces:
            e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
            node["extents"] = [e.x, e.y, e.width, e.height]
        if "Action" in ifaces and role not in PASSIVE_ROLES:
            a = acc.queryAction()
            node["actions"] = [a.getName(i) for i in range(a.nActions)]
        if "Value" in ifaces:
            v = acc.queryValue()
            node["value"] = [v.currentValue, v.minimumValue, v.maximumValue]
        leaf = acc.childCount == 0
        named = role in NAMED_TEXT_ROLES and node["name"] != ""
        if role != 40 and "Text" in ifaces and (editable or text_value or (leaf and not named)):
            q = acc.queryText()
            node["text"] = q.getText(0, min(q.characterCount, 2001))[:2000]
        if role == 83 or editable or text_value or role == 40:
            attrs = acc.getAttributes()
            node["attributes"] = [a for a in attrs if a.split(":", 1)[0] in ATTRIBUTE_KEYS]
        if node["name"] == "" and (role in LABELLABLE_ROLES or editable):
            for rel in acc.getRelationSet():
                if rel.getRelationType() == pyatspi.RELATION_LABELLED_BY and rel.getNTargets() > 0:
                    node["labelledBy"] = rel.getTarget(0).name
                    break
    except Exception:
        pass
    return node


MANAGES = int(pyatspi.STATE_MANAGES_DESCENDANTS)
MANAGED_CAP = 2048


def walk(acc, out):
    node = read_node(acc)
    out.append(node)
    count = acc.childCount
    # A container that manages its descendants (a spreadsheet's 2^34 cells)
    # is entered only when small: asking for all its children never ends.
    if MANAGES in node["states"] and (count > MANAGED_CAP or count < 0):
        return
    for i in range(count):
        child = acc.getChildAtIndex(i)
        if child is None:
            continue
        role = int(child.getRole())
        states = child.getState().getStates()
        if hidden(role, [int(s) for s in states], int(acc.getRole())):
            continue
        walk(child, out)


def main():
    pid = int(sys.argv[1])
    app = find_app(pid)
    if app is None:
        print(json.dumps({"error": "app not found"}), flush=True)
        return
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "quit":
            break
        nodes = []
        t0 = time.perf_counter()
        walk(app, nodes)
        ms = (time.perf_counter() - t0) * 1000
        reply = {"ms": ms, "nodes": len(nodes)}
        if cmd == "dump":
            reply["tree"] = nodes
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
