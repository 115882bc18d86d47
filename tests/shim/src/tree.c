/*
 * The in-memory app tree: loading from JSON, attribute storage, behaviours
 * (press toggles a check box, scripted effects add/remove/set elements),
 * notifications queued for observers, and the shim-only control functions.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shim.h"

App **g_apps = NULL;
int g_napps = 0;
static bool g_loaded = false;
static char *g_log = NULL;
static size_t g_loglen = 0, g_logcap = 0;
static int g_next_winnum = 100;

void queue_notification(App *a, Node *n, const char *name);
void observers_reset(void);

double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

void shim_log(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if (n > (int)sizeof line - 2) n = sizeof line - 2;
  line[n++] = '\n';
  if (g_loglen + n + 1 > g_logcap) {
    g_logcap = (g_loglen + n + 1) * 2;
    g_log = realloc(g_log, g_logcap);
  }
  memcpy(g_log + g_loglen, line, n);
  g_loglen += n;
  g_log[g_loglen] = 0;
}

/* Attributes. ------------------------------------------------------------ */

Val *node_attr(Node *n, const char *name) {
  for (int i = 0; i < n->nattrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i].v;
  return NULL;
}

static Attr *node_attr_rec(Node *n, const char *name) {
  for (int i = 0; i < n->nattrs; i++)
    if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
  return NULL;
}

static Attr *node_put(Node *n, const char *name) {
  Attr *a = node_attr_rec(n, name);
  if (a) return a;
  if (n->nattrs == n->capattrs) {
    n->capattrs = n->capattrs ? n->capattrs * 2 : 8;
    n->attrs = realloc(n->attrs, n->capattrs * sizeof(Attr));
  }
  a = &n->attrs[n->nattrs++];
  memset(a, 0, sizeof *a);
  a->name = strdup(name);
  return a;
}

static Val val_from_json(const JVal *j) {
  Val v = {0};
  if (!j || j->t == J_NULL) return v;
  switch (j->t) {
    case J_STR:
      v.kind = V_STR;
      v.str = strdup(j->str);
      break;
    case J_BOOL:
      v.kind = V_BOOL;
      v.b = j->b;
      break;
    case J_NUM:
      v.kind = (j->num == (double)(long long)j->num) ? V_INT : V_REAL;
      v.num = j->num;
      break;
    default:
      break;
  }
  return v;
}

const char *node_role(Node *n) {
  Val *v = node_attr(n, "AXRole");
  return v && v->kind == V_STR ? v->str : "";
}

const char *node_subrole(Node *n) {
  Val *v = node_attr(n, "AXSubrole");
  return v && v->kind == V_STR ? v->str : "";
}

bool node_is_text(Node *n) {
  const char *r = node_role(n);
  return !strcmp(r, "AXTextField") || !strcmp(r, "AXTextArea") || !strcmp(r, "AXComboBox");
}

bool node_is_secure(Node *n) { return strcmp(node_subrole(n), "AXSecureTextField") == 0; }

static const struct {
  const char *json, *ax;
} ATTR_KEYS[] = {
    {"role", "AXRole"},
    {"subrole", "AXSubrole"},
    {"title", "AXTitle"},
    {"description", "AXDescription"},
    {"help", "AXHelp"},
    {"placeholder", "AXPlaceholderValue"},
    {"identifier", "AXIdentifier"},
    {"value", "AXValue"},
    {"enabled", "AXEnabled"},
    {"focused", "AXFocused"},
    {"selected", "AXSelected"},
    {"expanded", "AXExpanded"},
    {"required", "AXRequired"},
    {"min", "AXMinValue"},
    {"max", "AXMaxValue"},
    {"main", "AXMain"},
    {"disclosing", "AXDisclosing"},
    {"markChar", "AXMenuItemMarkChar"},
};

static Node *node_from_json(App *app, Node *parent, const JVal *j);

static void node_add_child(Node *parent, Node *kid, int index) {
  if (parent->nkids == parent->capkids) {
    parent->capkids = parent->capkids ? parent->capkids * 2 : 4;
    parent->kids = realloc(parent->kids, parent->capkids * sizeof(Node *));
  }
  if (index < 0 || index > parent->nkids) index = parent->nkids;
  memmove(parent->kids + index + 1, parent->kids + index, (parent->nkids - index) * sizeof(Node *));
  parent->kids[index] = kid;
  parent->nkids++;
  kid->parent = parent;
}

static Node *node_from_json(App *app, Node *parent, const JVal *j) {
  Node *n = calloc(1, sizeof(Node));
  n->app = app;
  n->parent = parent;
  n->onscreen = true;
  JVal *k = json_get(j, "id");
  if (k && k->t == J_STR) n->key = strdup(k->str);
  for (size_t i = 0; i < sizeof ATTR_KEYS / sizeof ATTR_KEYS[0]; i++) {
    JVal *v = json_get(j, ATTR_KEYS[i].json);
    if (v) node_put(n, ATTR_KEYS[i].ax)->v = val_from_json(v);
  }
  JVal *extra = json_get(j, "attrs");
  for (int i = 0; extra && i < extra->n; i++) node_put(n, extra->keys[i])->v = val_from_json(extra->items[i]);
  if (!node_attr(n, "AXEnabled")) node_put(n, "AXEnabled")->v = (Val){.kind = V_BOOL, .b = true};
  if (!node_attr(n, "AXFocused")) node_put(n, "AXFocused")->v = (Val){.kind = V_BOOL, .b = false};
  JVal *te = json_get(j, "titleElement");
  if (te && te->t == J_STR) {
    Attr *a = node_put(n, "AXTitleUIElement");
    a->v.kind = V_NODE;
    a->v.node_key = strdup(te->str);
  }
  JVal *frame = json_get(j, "frame");
  if (frame && frame->t == J_ARR && frame->n == 4) {
    n->has_frame = true;
    for (int i = 0; i < 4; i++) n->frame[i] = frame->items[i]->num;
  }
  JVal *acts = json_get(j, "actions");
  if (acts && acts->t == J_ARR) {
    n->actions = calloc(acts->n + 1, sizeof(char *));
    for (int i = 0; i < acts->n; i++) n->actions[n->nactions++] = strdup(acts->items[i]->str);
  }
  /* Default settable attributes, as AppKit controls have them. */
  const char *role = node_role(n);
  bool readonly = json_get(j, "readonly") && json_get(j, "readonly")->b;
  if ((node_is_text(n) || !strcmp(role, "AXSlider")) && !readonly) node_put(n, "AXValue")->settable = true;
  if (strcmp(role, "AXStaticText") && strcmp(role, "AXGroup") && strcmp(role, "AXImage") &&
      strcmp(role, "AXScrollArea") && strcmp(role, "AXWindow") && strcmp(role, "AXWebArea"))
    node_put(n, "AXFocused")->settable = true;
  if (!strcmp(role, "AXWindow")) {
    if (!node_attr(n, "AXMain")) node_put(n, "AXMain")->v = (Val){.kind = V_BOOL, .b = false};
    node_put(n, "AXMain")->settable = true;
    JVal *wn = json_get(j, "windowNumber");
    n->winnum = wn ? (int)wn->num : g_next_winnum++;
    JVal *layer = json_get(j, "layer");
    n->layer = layer ? (int)layer->num : 0;
    JVal *on = json_get(j, "onscreen");
    n->onscreen = on ? on->b : true;
  }
  JVal *settable = json_get(j, "settable");
  for (int i = 0; settable && i < settable->n; i++) node_put(n, settable->items[i]->str)->settable = true;
  n->on = json_get(j, "on");
  JVal *kids = json_get(j, "children");
  for (int i = 0; kids && i < kids->n; i++) node_add_child(n, node_from_json(app, n, kids->items[i]), -1);
  return n;
}

Node *node_find(Node *n, const char *key) {
  if (!n || n->dead) return NULL;
  if (n->key && strcmp(n->key, key) == 0) return n;
  for (int i = 0; i < n->nkids; i++) {
    Node *f = node_find(n->kids[i], key);
    if (f) return f;
  }
  return NULL;
}

static void resolve_refs(App *a, Node *n) {
  for (int i = 0; i < n->nattrs; i++)
    if (n->attrs[i].v.kind == V_NODE && n->attrs[i].v.node_key)
      n->attrs[i].v.node = node_find(a->root, n->attrs[i].v.node_key);
  for (int i = 0; i < n->nkids; i++) resolve_refs(a, n->kids[i]);
}

static App *app_from_json(const JVal *j) {
  App *a = calloc(1, sizeof(App));
  JVal *v;
  a->pid = (v = json_get(j, "pid")) ? (int)v->num : 0;
  a->name = strdup((v = json_get(j, "name")) ? v->str : "App");
  a->bundle = strdup((v = json_get(j, "bundle")) ? v->str : "");
  v = json_get(j, "a11y");
  if (v && v->t == J_STR) a->a11y_mode = !strcmp(v->str, "manual") ? 1 : !strcmp(v->str, "enhanced") ? 2 : 0;
  a->build_delay_ms = (v = json_get(j, "buildDelayMs")) ? (int)v->num : 150;
  Node *root = calloc(1, sizeof(Node));
  root->app = a;
  node_put(root, "AXRole")->v = (Val){.kind = V_STR, .str = strdup("AXApplication")};
  node_put(root, "AXTitle")->v = (Val){.kind = V_STR, .str = strdup(a->name)};
  a->root = root;
  JVal *menubar = json_get(j, "menubar");
  if (menubar) node_add_child(root, node_from_json(a, root, menubar), -1);
  JVal *wins = json_get(j, "windows");
  for (int i = 0; wins && i < wins->n; i++) node_add_child(root, node_from_json(a, root, wins->items[i]), -1);
  resolve_refs(a, root);
  return a;
}

static bool g_frontmost_set = false;
static int g_frontmost_pid = 0;

App *app_by_pid(int pid) {
  for (int i = 0; i < g_napps; i++)
    if (g_apps[i]->pid == pid && !g_apps[i]->removed) return g_apps[i];
  return NULL;
}

App *app_frontmost(void) {
  if (g_frontmost_set) {
    App *a = app_by_pid(g_frontmost_pid);
    if (a) return a;
  }
  for (int i = 0; i < g_napps; i++)
    if (!g_apps[i]->removed) return g_apps[i];
  return NULL;
}

void app_set_frontmost(App *a) {
  if (app_frontmost() == a) return;
  g_frontmost_set = true;
  g_frontmost_pid = a->pid;
  queue_notification(a, a->root, "AXApplicationActivated");
}

static int load_tree(const char *path) {
  char err[256];
  g_apps = NULL;
  g_napps = 0;
  g_loaded = true;
  g_frontmost_set = false;
  if (!path || !*path) return 0;
  JVal *doc = json_parse_file(path, err, sizeof err);
  if (!doc) {
    fprintf(stderr, "axshim: %s\n", err);
    return -1;
  }
  JVal *apps = json_get(doc, "apps");
  g_apps = calloc(apps ? apps->n + 1 : 1, sizeof(App *));
  for (int i = 0; apps && i < apps->n; i++) {
    g_apps[g_napps++] = app_from_json(apps->items[i]);
    JVal *fm = json_get(apps->items[i], "frontmost");
    if (fm && fm->b) {
      g_frontmost_set = true;
      g_frontmost_pid = g_apps[g_napps - 1]->pid;
    }
  }
  return 0;
}

bool tree_loaded(void) { return g_loaded; }

void tree_ensure(void) {
  if (!g_loaded) load_tree(getenv("DESKTOP_AX_SHIM_TREE"));
}

/* Web content of Chromium-like apps appears only once accessibility is switched on. */
bool node_children_visible(const Node *n) {
  App *a = n->app;
  if (!a || a->a11y_mode == 0) return true;
  Val *role = node_attr((Node *)n, "AXRole");
  if (!role || role->kind != V_STR || strcmp(role->str, "AXWebArea")) return true;
  bool on = a->a11y_mode == 1 ? (a->manual_on || a->enhanced_on) : a->enhanced_on;
  return on && (now_seconds() - a->enabled_at) * 1000 >= a->build_delay_ms;
}

/* Behaviours. ------------------------------------------------------------- */

Node *node_focused(Node *n) {
  if (!n || n->dead) return NULL;
  Val *f = node_attr(n, "AXFocused");
  if (f && f->kind == V_BOOL && f->b && n->parent) return n;
  if (!node_children_visible(n)) return NULL;
  for (int i = 0; i < n->nkids; i++) {
    Node *r = node_focused(n->kids[i]);
    if (r) return r;
  }
  return NULL;
}

void node_set_focus(Node *n) {
  Node *old = node_focused(n->app->root);
  if (old == n) return;
  if (old) node_attr(old, "AXFocused")->b = false;
  Attr *a = node_put(n, "AXFocused");
  a->v.kind = V_BOOL;
  a->v.b = true;
  queue_notification(n->app, n, "AXFocusedUIElementChanged");
}

static void node_kill(Node *n) {
  n->dead = true;
  for (int i = 0; i < n->nkids; i++) node_kill(n->kids[i]);
}

static void node_remove(Node *n) {
  Node *p = n->parent;
  if (p) {
    for (int i = 0; i < p->nkids; i++)
      if (p->kids[i] == n) {
        memmove(p->kids + i, p->kids + i + 1, (p->nkids - i - 1) * sizeof(Node *));
        p->nkids--;
        break;
      }
  }
  queue_notification(n->app, n, "AXUIElementDestroyed");
  node_kill(n);
  if (p) queue_notification(n->app, p, "AXLayoutChanged");
}

/* Sets a stored attribute and queues the notification Apple sends for it. */
void node_set_val(Node *n, const char *name, Val v) {
  Attr *a = node_put(n, name);
  a->v = v;
  if (!strcmp(name, "AXTitle")) queue_notification(n->app, n, "AXTitleChanged");
  else if (!strcmp(name, "AXSelected")) queue_notification(n->app, n->parent ? n->parent : n, "AXSelectedChildrenChanged");
  else queue_notification(n->app, n, "AXValueChanged");
}

static void run_effects(Node *self, const JVal *list) {
  App *a = self->app;
  for (int i = 0; list && list->t == J_ARR && i < list->n; i++) {
    const JVal *e = list->items[i];
    JVal *v;
    if ((v = json_get(e, "set"))) {
      Node *t = node_find(a->root, v->str);
      JVal *attr = json_get(e, "attr");
      if (t) node_set_val(t, attr ? attr->str : "AXValue", val_from_json(json_get(e, "value")));
    } else if ((v = json_get(e, "remove"))) {
      Node *t = node_find(a->root, v->str);
      if (t) node_remove(t);
    } else if ((v = json_get(e, "add"))) {
      Node *p = node_find(a->root, v->str);
      JVal *idx = json_get(e, "index");
      if (p) {
        Node *kid = node_from_json(a, p, json_get(e, "element"));
        node_add_child(p, kid, idx ? (int)idx->num : -1);
        resolve_refs(a, kid);
        queue_notification(a, kid, "AXCreated");
        queue_notification(a, p, "AXLayoutChanged");
      }
    } else if ((v = json_get(e, "quit"))) {
      /* {"quit": true}: the app quits (its Quit menu item): its process ends, it leaves. */
      if (a->pid > 0) kill(a->pid, SIGTERM);
      a->removed = true;
    } else if ((v = json_get(e, "focus"))) {
      Node *t = node_find(a->root, v->str);
      if (t) node_set_focus(t);
    } else if ((v = json_get(e, "move"))) {
      /* {"move": id, "frame": [x, y, w, h]}: the app scrolled or laid it out anew. */
      Node *t = node_find(a->root, v->str);
      JVal *f = json_get(e, "frame");
      if (t && f && f->t == J_ARR && f->n == 4) {
        for (int k = 0; k < 4; k++) t->frame[k] = f->items[k]->num;
        t->has_frame = true;
        queue_notification(a, t, "AXMoved");
      }
    }
  }
}

static double node_num(Node *n, const char *name, double dflt) {
  Val *v = node_attr(n, name);
  return v && (v->kind == V_INT || v->kind == V_REAL) ? v->num : dflt;
}

static void node_set_num(Node *n, double d) {
  node_set_val(n, "AXValue", (Val){.kind = d == (double)(long long)d ? V_INT : V_REAL, .num = d});
}

/* Performs an action the node advertises. Returns an AXError. */
AXError node_perform(Node *n, const char *action) {
  bool known = false;
  for (int i = 0; i < n->nactions; i++)
    if (!strcmp(n->actions[i], action)) known = true;
  if (!known) return kAXErrorActionUnsupported;
  shim_log("action %s %s", n->key ? n->key : node_role(n), action);
  const char *role = node_role(n);
  if (!strcmp(action, "AXPress")) {
    if (!strcmp(role, "AXCheckBox")) {
      node_set_num(n, node_num(n, "AXValue", 0) == 1 ? 0 : 1);
    } else if (!strcmp(role, "AXRadioButton") && n->parent) {
      for (int i = 0; i < n->parent->nkids; i++) {
        Node *s = n->parent->kids[i];
        if (s != n && !strcmp(node_role(s), "AXRadioButton") && node_num(s, "AXValue", 0) != 0) node_set_num(s, 0);
      }
      node_set_num(n, 1);
    }
  } else if (!strcmp(action, "AXIncrement") || !strcmp(action, "AXDecrement")) {
    double lo = node_num(n, "AXMinValue", 0), hi = node_num(n, "AXMaxValue", 100);
    double step = (hi - lo) / 10, v = node_num(n, "AXValue", lo);
    v += !strcmp(action, "AXIncrement") ? step : -step;
    node_set_num(n, v < lo ? lo : v > hi ? hi : v);
  } else if (!strcmp(action, "AXRaise") && !strcmp(role, "AXWindow") && n->parent) {
    Node *p = n->parent;
    for (int i = 0; i < p->nkids; i++)
      if (p->kids[i] == n) {
        memmove(p->kids + 1, p->kids, i * sizeof(Node *));
        p->kids[0] = n;
      }
    for (int i = 0; i < p->nkids; i++) {
      Val *m = node_attr(p->kids[i], "AXMain");
      if (m) m->b = p->kids[i] == n;
    }
    queue_notification(n->app, n, "AXMainWindowChanged");
  }
  run_effects(n, json_get(n->on, action));
  return kAXErrorSuccess;
}

/* Input events (called by cg.c). ----------------------------------------- */

static bool contains(Node *n, double x, double y) {
  return n->has_frame && x >= n->frame[0] && y >= n->frame[1] && x < n->frame[0] + n->frame[2] &&
         y < n->frame[1] + n->frame[3];
}

static Node *hit_below(Node *n, double x, double y) {
  if (!node_children_visible(n)) return n;
  for (int i = n->nkids - 1; i >= 0; i--) {
    Node *k = n->kids[i];
    if (contains(k, x, y)) return hit_below(k, x, y);
  }
  return n;
}

Node *node_hit(App *a, double x, double y) {
  for (int i = 0; a && i < a->root->nkids; i++) {
    Node *w = a->root->kids[i];
    if (w->winnum && w->onscreen && contains(w, x, y)) return hit_below(w, x, y);
  }
  return NULL;
}

void node_click(Node *n) {
  shim_log("click %s", n->key ? n->key : node_role(n));
  app_set_frontmost(n->app);
  for (Node *c = n; c; c = c->parent) {
    if (json_get(c->on, "click")) {
      run_effects(c, json_get(c->on, "click"));
      return;
    }
    for (int i = 0; i < c->nactions; i++)
      if (!strcmp(c->actions[i], "AXPress")) {
        node_perform(c, "AXPress");
        return;
      }
    if (node_is_text(c)) {
      node_set_focus(c);
      return;
    }
  }
}

void node_key(App *a, const EventData *ev) {
  char text[256] = {0};
  int o = 0;
  for (int i = 0; i < ev->text_len && o < 250; i++) {
    unsigned cp = ev->text[i];
    if (cp >= 0xD800 && cp < 0xDC00 && i + 1 < ev->text_len) cp = 0x10000 + ((cp - 0xD800) << 10) + (ev->text[++i] - 0xDC00);
    char *p = text + o;
    if (cp < 0x80) *p++ = (char)cp;
    else if (cp < 0x800) { *p++ = (char)(0xC0 | (cp >> 6)); *p++ = (char)(0x80 | (cp & 0x3F)); }
    else if (cp < 0x10000) { *p++ = (char)(0xE0 | (cp >> 12)); *p++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *p++ = (char)(0x80 | (cp & 0x3F)); }
    else { *p++ = (char)(0xF0 | (cp >> 18)); *p++ = (char)(0x80 | ((cp >> 12) & 0x3F)); *p++ = (char)(0x80 | ((cp >> 6) & 0x3F)); *p++ = (char)(0x80 | (cp & 0x3F)); }
    o = (int)(p - text);
  }
  Node *f = a ? node_focused(a->root) : NULL;
  shim_log("key %s code=%u flags=0x%llx text=%s target=%s", ev->keydown ? "down" : "up", ev->keycode,
           (unsigned long long)ev->flags, text, f ? (f->key ? f->key : node_role(f)) : "-");
  if (!ev->keydown || !f) return;
  bool command = (ev->flags & (0x100000 | 0x40000)) != 0; /* cmd or ctrl */
  if (node_is_text(f) && !command) {
    Val *v = node_attr(f, "AXValue");
    const char *old = v && v->kind == V_STR ? v->str : "";
    char *next = NULL;
    if (ev->keycode == 51) { /* delete: drop the last UTF-8 character */
      size_t len = strlen(old);
      while (len > 0 && ((unsigned char)old[len - 1] & 0xC0) == 0x80) len--;
      if (len > 0) len--;
      next = strndup(old, len);
    } else if (o > 0 && ev->keycode != 36 && ev->keycode != 48) {
      next = malloc(strlen(old) + o + 1);
      strcpy(next, old);
      strcat(next, text);
    }
    if (next) node_set_val(f, "AXValue", (Val){.kind = V_STR, .str = next});
  }
  if (ev->keycode == 36) run_effects(f, json_get(f->on, "key:Return"));
}

void node_scroll(Node *n, int32_t dy, int32_t dx) {
  shim_log("scroll %s dy=%d dx=%d", n->key ? n->key : node_role(n), dy, dx);
  for (Node *c = n; c; c = c->parent) {
    if (strcmp(node_role(c), "AXScrollArea")) continue;
    for (int i = 0; i < c->nkids; i++) {
      Node *bar = c->kids[i];
      if (strcmp(node_role(bar), "AXScrollBar")) continue;
      double v = node_num(bar, "AXValue", 0) - dy * 0.1;
      v = v < 0 ? 0 : v > 1 ? 1 : v;
      node_set_val(bar, "AXValue", (Val){.kind = V_REAL, .num = (double)(long long)(v * 1000 + 0.5) / 1000});
      return;
    }
  }
}

void node_drag(Node *from, Node *to, double x, double y) {
  shim_log("drag %s -> %s at %.0f,%.0f", from->key ? from->key : node_role(from),
           to ? (to->key ? to->key : node_role(to)) : "-", x, y);
  for (Node *c = from; c; c = c->parent) {
    if (strcmp(node_role(c), "AXSlider") || !c->has_frame) continue;
    double lo = node_num(c, "AXMinValue", 0), hi = node_num(c, "AXMaxValue", 100);
    double t = (x - c->frame[0]) / c->frame[2];
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    node_set_num(c, (double)(long long)(lo + t * (hi - lo) + 0.5));
    return;
  }
}

/* Shim-only control functions. --------------------------------------------- */

void runloop_reset(void);

/* Loads a tree (NULL: DESKTOP_AX_SHIM_TREE) and forgets every earlier object and stat. */
EXPORT int shim_reset(const char *path) {
  extern int g_trust;
  extern double g_global_timeout;
  observers_reset();
  runloop_reset();
  cf_reset_accounting();
  g_loglen = 0;
  if (g_log) g_log[0] = 0;
  g_trust = 1;
  g_global_timeout = 6.0;
  return load_tree(path ? path : getenv("DESKTOP_AX_SHIM_TREE"));
}

/* 1 trusted; 0 not trusted; 2 says trusted but refuses every call (a stale grant). */
EXPORT void shim_set_trusted(int mode) {
  extern int g_trust;
  g_trust = mode;
}

/* ms > 0: the app answers after ms; -25204: it never answers. 0: normal. */
EXPORT int shim_set_hang(int pid, int ms) {
  tree_ensure();
  App *a = app_by_pid(pid);
  if (!a) return -1;
  a->hang_ms = ms;
  return 0;
}

/* The process quits: its windows vanish and every element of it stops answering. */
/* Adds an app (one entry of a tree's "apps", as JSON text): it was launched. */
EXPORT int shim_add_app(const char *json) {
  tree_ensure();
  char err[256];
  JVal *j = json_parse_text(json, err, sizeof err);
  if (!j) {
    fprintf(stderr, "axshim: %s\n", err);
    return -1;
  }
  App **grown = realloc(g_apps, (size_t)(g_napps + 2) * sizeof(App *));
  if (!grown) return -1;
  g_apps = grown;
  g_apps[g_napps++] = app_from_json(j);
  g_apps[g_napps] = NULL;
  return 0;
}

EXPORT int shim_remove_app(int pid) {
  tree_ensure();
  App *a = app_by_pid(pid);
  if (!a) return -1;
  a->removed = true;
  return 0;
}

/* Copies the event log (clicks, keys, actions...) into buf; returns its full length. */
EXPORT long shim_event_log(char *buf, long cap) {
  if (buf && cap > 0) {
    size_t n = g_loglen < (size_t)cap - 1 ? g_loglen : (size_t)cap - 1;
    if (n) memcpy(buf, g_log, n);
    buf[n] = 0;
  }
  return (long)g_loglen;
}

static Node *find_for(int pid, const char *key) {
  tree_ensure();
  App *a = NULL;
  for (int i = 0; i < g_napps; i++)
    if (g_apps[i]->pid == pid) a = g_apps[i];
  if (!a) return NULL;
  return key && *key ? node_find(a->root, key) : a->root;
}

/* Writes an attribute of the element with the given key ("" = the app) as text. -1: no element, 0: no attribute. */
EXPORT int shim_get_attr(int pid, const char *key, const char *attr, char *buf, int cap) {
  Node *n = find_for(pid, key);
  if (!n) return -1;
  if (n == n->app->root && !strcmp(attr, "AXEnhancedUserInterface")) {
    snprintf(buf, cap, "%s", n->app->enhanced_on ? "true" : "false");
    return 1;
  }
  if (n == n->app->root && !strcmp(attr, "AXManualAccessibility")) {
    snprintf(buf, cap, "%s", n->app->manual_on ? "true" : "false");
    return 1;
  }
  Val *v = node_attr(n, attr);
  if (!v) return 0;
  switch (v->kind) {
    case V_STR: snprintf(buf, cap, "%s", v->str); break;
    case V_INT:
    case V_REAL: snprintf(buf, cap, "%g", v->num); break;
    case V_BOOL: snprintf(buf, cap, "%s", v->b ? "true" : "false"); break;
    default: snprintf(buf, cap, "%s", ""); break;
  }
  return 1;
}

/* Sets an attribute from JSON text (as the app itself would) and sends its notification. */
EXPORT int shim_set_attr(int pid, const char *key, const char *attr, const char *json) {
  Node *n = find_for(pid, key);
  if (!n) return -1;
  char err[128];
  JVal *j = json_parse_text(json, err, sizeof err);
  if (!j) return -2;
  node_set_val(n, attr, val_from_json(j));
  return 0;
}

/* Runs a scripted effect list (JSON array) as if the app changed itself. */
EXPORT int shim_apply(int pid, const char *json) {
  Node *n = find_for(pid, "");
  if (!n) return -1;
  char err[128];
  JVal *j = json_parse_text(json, err, sizeof err);
  if (!j) return -2;
  run_effects(n, j);
  return 0;
}
