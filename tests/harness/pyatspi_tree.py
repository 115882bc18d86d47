#!/usr/bin/python3
"""The independent reference for read conformance: walks one app with pyatspi
(what Orca, dogtail and OSWorld build on) and prints every node it finds as
JSON lines, in pre-order, for tests/e2e/corpus_read_test.ts to compare with
`desktop read`.

Usage: pyatspi_tree.py PID

Each line: {"path", "parent", "role", "name", "states": [...], "text"?,
"md"?: true, "skipped"?: true}. The walk applies the deliberate choices the
reader documents (and nothing else of the reader's code):
- a subtree whose root lacks VISIBLE is left out (frames and apps are kept);
- a document that is not SHOWING (a browser's preloaded tab) is left out;
- a subtree whose root is not SHOWING and sits at INT32_MIN (GTK 3 does not
  draw it: a closed revealer or popover) is left out, unless it is a menu, a
  menu item or in a menu (closed menus are kept), or a cell, row or item of a
  table or list (GTK 2 puts scrolled-out cells there);
- a subtree with no area on screen (zero-size extents all the way down) is
  left out, as GTK 4 reports pages of a stack that are not shown, and so is a
  combo box's child with no area (its closed popup: Qt 5 keeps it SHOWING),
  and a combo box's list or menu that keeps none of its items;
- children of a container with MANAGES_DESCENDANTS are read only when it has
  at most CAP of them (such a container is marked "md"; larger ones are not
  entered at all and marked "skipped");
- children that belong to another app are left out; an object listed under
  two parents is kept at its first place;
- a paragraph whose children are only styled text (Firefox's <em>, <code>:
  static leaves) is one text, its children's texts in place of their U+FFFC;
- text is read (whole, then capped) from leaves with the Text interface
  except named labels, headings and static texts, and from inputs, never from
  password fields.
"""
import json
import sys

import pyatspi

CAP = 2048
COMBO_BOX = 11
POPUP_ROLES = {31, 33, 41}  # list, menu, popup menu
TEXT_CAP = 2000
TEXT_VALUE_ROLES = {61, 79, 52, 11, 60}
NAMED_TEXT_ROLES = {29, 116, 83}
DOCUMENT_ROLES = {82, 95, 94, 92, 93, 96}
VISIBLE = int(pyatspi.STATE_VISIBLE)
SHOWING = int(pyatspi.STATE_SHOWING)
MANAGES = int(pyatspi.STATE_MANAGES_DESCENDANTS)


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


def extents(acc, ifaces):
    if "Component" not in ifaces:
        return None
    try:
        e = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        return [e.x, e.y, e.width, e.height]
    except Exception:
        return None


def read(acc, parent_path, bus, seen, parent_role=None):
    """Reads one node and its subtree as a nested record, or None when hidden."""
    try:
        role = int(acc.getRole())
        states = [int(s) for s in acc.getState().getStates()]
    except Exception:
        return None
    if hidden(role, states, parent_role):
        return None
    path = acc.path
    if path in seen:
        return None
    seen.add(path)
    name = acc.name or ""
    ifaces = set(acc.get_interfaces())
    rec = {"path": path, "parent": parent_path, "role": role, "name": name, "states": states}
    try:
        count = acc.childCount
    except Exception:
        count = 0
    if MANAGES in states:
        rec["md"] = True
        if count > CAP or count < 0:
            rec["skipped"] = True
            count = 0
    kids = []
    for i in range(max(count, 0)):
        try:
            child = acc.getChildAtIndex(i)
        except Exception:
            child = None
        if child is None:
            continue
        try:
            if child.get_application() != bus:
                continue  # embedded from another app
        except Exception:
            pass
        k = read(child, path, bus, seen, role)
        if k is not None:
            kids.append(k)
    leaf = count == 0 and MANAGES not in states
    editable = "EditableText" in ifaces
    wants = role != 40 and "Text" in ifaces and (
        editable or role in TEXT_VALUE_ROLES or
        (leaf and not (role in NAMED_TEXT_ROLES and name != "")))
    if wants:
        try:
            q = acc.queryText()
            # The length, not -1: GTK 4.8 answers "" for an end of -1.
            t = q.getText(0, q.characterCount)
            rec["text"] = t[:TEXT_CAP] + ("\u2026" if len(t) > TEXT_CAP else "")
        except Exception:
            pass
    flowed = flowed_text(acc, ifaces, role, kids)
    if flowed is not None:
        rec["text"] = flowed
        kids = []
    rec["_ext"] = extents(acc, ifaces)
    rec["_kids"] = kids
    return rec


STATIC = 116


def flowed_text(acc, ifaces, role, kids):
    """A paragraph whose children are only styled text (Firefox's <em>, <code>): its whole text."""
    if not kids or "Text" not in ifaces or role in TEXT_VALUE_ROLES:
        return None
    if not all(k["role"] == STATIC and not k["_kids"] and k.get("text", "").strip() for k in kids):
        return None
    try:
        text = acc.queryText().getText(0, -1)
    except Exception:
        return None
    runs = text.split("\ufffc")
    if len(runs) != len(kids) + 1:
        return None
    whole = "".join(r + (kids[k]["text"] if k < len(kids) else "") for k, r in enumerate(runs))
    return " ".join(whole.split())


def offscreen(rec):
    """A subtree with no area on screen: zero-size extents all the way down."""
    e = rec["_ext"]
    if e is not None:
        if e[2] > 0 and e[3] > 0:
            return False
    elif not rec["_kids"]:
        return False
    return all(offscreen(k) for k in rec["_kids"])


UNDRAWN_AT = -2147483648
# Menus and their items; the cells, rows and items of tables and lists.
KEPT_UNDRAWN_ROLES = {33, 35, 8, 45, 59, 41, 56, 57, 58, 10, 47, 90, 91, 32}
MENU_ROLES = {33, 41}


def undrawn(parent, rec):
    """Not drawn: not SHOWING, at INT32_MIN (GTK 3's unmapped widget); menus stay."""
    e = rec["_ext"]
    return e is not None and e[0] == UNDRAWN_AT and e[1] == UNDRAWN_AT and \
        SHOWING not in rec["states"] and rec["role"] not in KEPT_UNDRAWN_ROLES and \
        parent["role"] not in MENU_ROLES


def closed_popup(parent, rec):
    """A combo box's child with no area: its closed popup (Qt 5 keeps the list SHOWING)."""
    e = rec["_ext"]
    return parent["role"] == COMBO_BOX and e is not None and (e[2] <= 0 or e[3] <= 0) \
        and bool(rec["_kids"])


def empty_popup(parent, rec):
    """A combo box's list or menu that keeps none of its items (Firefox's closed select)."""
    return parent["role"] == COMBO_BOX and rec["role"] in POPUP_ROLES and \
        not [k for k in rec["_kids"] if not offscreen(k)]


def flatten(rec, out):
    kids = [k for k in rec.pop("_kids")
            if not offscreen(k) and not undrawn(rec, k) and not closed_popup(rec, k)
            and not empty_popup(rec, k)]
    ext = rec.pop("_ext")
    if ext:
        rec["ext"] = ext
    out.append(rec)
    for k in kids:
        flatten(k, out)


def main():
    pid = int(sys.argv[1])
    app = find_app(pid)
    if app is None:
        print(json.dumps({"error": "app not found"}), flush=True)
        sys.exit(1)
    root = read(app, "", app, set())
    records = []
    if root is not None:
        flatten(root, records)
    for r in records:
        print(json.dumps(r))


if __name__ == "__main__":
    main()
