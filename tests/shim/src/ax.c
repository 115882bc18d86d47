/*
 * ApplicationServices (HIServices) AX API over the in-memory tree, plus
 * AXObserver notifications delivered from CFRunLoopRunInMode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shim.h"

int g_trust = 1;
double g_global_timeout = 6.0;

EXPORT const void *kAXTrustedCheckOptionPrompt = NULL;

const char *node_role(Node *n);
bool node_is_text(Node *n);
bool node_is_secure(Node *n);
Node *node_find(Node *n, const char *key);
Node *node_focused(Node *n);
void node_set_focus(Node *n);
void node_set_val(Node *n, const char *name, Val v);
AXError node_perform(Node *n, const char *action);
App *app_by_pid(int pid);
double now_seconds(void);

EXPORT CFTypeID AXUIElementGetTypeID(void) { return TID_AXELEM; }
EXPORT CFTypeID AXValueGetTypeID(void) { return TID_AXVALUE; }
EXPORT CFTypeID AXObserverGetTypeID(void) { return TID_AXOBSERVER; }

static CFObj *elem_for(Node *n) {
  CFObj *o = cf_alloc(TID_AXELEM);
  o->u.ax.kind = 0;
  o->u.ax.node = n;
  o->u.ax.pid = n->app->pid;
  return o;
}

EXPORT CFObj *AXUIElementCreateApplication(int pid) {
  tree_ensure();
  App *a = app_by_pid(pid);
  if (a) return elem_for(a->root);
  CFObj *o = cf_alloc(TID_AXELEM);
  o->u.ax.kind = 2;
  o->u.ax.pid = pid;
  return o;
}

EXPORT CFObj *AXUIElementCreateSystemWide(void) {
  tree_ensure();
  CFObj *o = cf_alloc(TID_AXELEM);
  o->u.ax.kind = 1;
  return o;
}

EXPORT Boolean AXIsProcessTrusted(void) { return g_trust != 0; }

EXPORT Boolean AXIsProcessTrustedWithOptions(CFObj *options) {
  if (options && cf_is(options, TID_DICT)) {
    CFObj *prompt = CFDictionaryGetValue(options, (CFObj *)kAXTrustedCheckOptionPrompt);
    if (prompt && cf_is(prompt, TID_BOOL) && prompt->u.boolean.value && g_trust == 0) shim_log("trust prompt");
  }
  return g_trust != 0;
}

static void sleep_ms(double ms) {
  if (ms <= 0) return;
  struct timespec ts = {(time_t)(ms / 1000), (long)((ms - (long)(ms / 1000) * 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

/*
 * What every element call does first: the trust check, the object check, the
 * target app's liveness and responsiveness (a hung app costs the messaging
 * timeout, then kAXErrorCannotComplete), and the element's liveness.
 */
static AXError enter(CFObj *el, Node **out) {
  *out = NULL;
  if (g_trust != 1) return kAXErrorAPIDisabled;
  if (!cf_is(el, TID_AXELEM)) return kAXErrorIllegalArgument;
  if (el->u.ax.kind == 1) return kAXErrorSuccess;
  if (el->u.ax.kind == 2) return kAXErrorCannotComplete; /* no such process */
  Node *n = el->u.ax.node;
  App *a = n->app;
  if (a->removed) return kAXErrorCannotComplete;
  double timeout = el->u.ax.timeout > 0 ? el->u.ax.timeout : g_global_timeout;
  if (a->hang_ms == kAXErrorCannotComplete) return kAXErrorCannotComplete;
  if (a->hang_ms > 0) {
    if (a->hang_ms > timeout * 1000) {
      sleep_ms(timeout * 1000);
      return kAXErrorCannotComplete;
    }
    sleep_ms(a->hang_ms);
  }
  if (n->dead) return kAXErrorInvalidUIElement;
  *out = n;
  return kAXErrorSuccess;
}

EXPORT AXError AXUIElementSetMessagingTimeout(CFObj *el, float seconds) {
  if (!cf_is(el, TID_AXELEM) || seconds < 0) return kAXErrorIllegalArgument;
  if (el->u.ax.kind == 1) g_global_timeout = seconds == 0 ? 6.0 : seconds;
  else el->u.ax.timeout = seconds;
  return kAXErrorSuccess;
}

EXPORT AXError AXUIElementGetPid(CFObj *el, int *pid) {
  if (!cf_is(el, TID_AXELEM) || !pid) return kAXErrorIllegalArgument;
  if (el->u.ax.kind == 1) return kAXErrorIllegalArgument;
  *pid = el->u.ax.pid;
  return kAXErrorSuccess;
}

static CFObj *val_to_cf(const Val *v) {
  switch (v->kind) {
    case V_STR: return cf_string(v->str);
    case V_INT: return cf_number_int((int64_t)v->num);
    case V_REAL: return cf_number_double(v->num);
    case V_BOOL: return cf_bool(v->b);
    case V_NODE: return v->node && !v->node->dead ? elem_for(v->node) : NULL;
    default: return NULL;
  }
}

static CFObj *axvalue_new(uint32_t type, const void *bytes, size_t n) {
  CFObj *o = cf_alloc(TID_AXVALUE);
  o->u.axvalue.type = type;
  memcpy(o->u.axvalue.bytes, bytes, n);
  return o;
}

static CFObj *kids_array(Node *n, bool windows_only) {
  int count = 0;
  CFObj **items = calloc(n->nkids + 1, sizeof(CFObj *));
  if (node_children_visible(n))
    for (int i = 0; i < n->nkids; i++) {
      if (windows_only && strcmp(node_role(n->kids[i]), "AXWindow")) continue;
      items[count++] = elem_for(n->kids[i]);
    }
  CFObj *arr = cf_array_take(items, count);
  free(items);
  return arr;
}

static Node *window_of(Node *n) {
  for (Node *c = n; c; c = c->parent)
    if (!strcmp(node_role(c), "AXWindow")) return c;
  return NULL;
}

static Node *main_window(App *a) {
  Node *first = NULL;
  for (int i = 0; i < a->root->nkids; i++) {
    Node *w = a->root->kids[i];
    if (strcmp(node_role(w), "AXWindow")) continue;
    if (!first) first = w;
    Val *m = node_attr(w, "AXMain");
    if (m && m->b) return w;
  }
  return first;
}

/*
 * Reads one attribute of a node into a new CF object (caller owns it).
 * Returns an AXError: unsupported attributes give -25205, empty ones -25212.
 */
static AXError read_attr(Node *n, const char *name, CFObj **out) {
  *out = NULL;
  App *a = n->app;
  bool is_app = n == a->root;
  if (!strcmp(name, "AXChildren")) {
    *out = kids_array(n, false);
    return 0;
  }
  if (!strcmp(name, "AXParent")) {
    if (!n->parent) return kAXErrorNoValue;
    *out = elem_for(n->parent);
    return 0;
  }
  if (!strcmp(name, "AXPosition") || !strcmp(name, "AXSize")) {
    if (!n->has_frame) return kAXErrorAttributeUnsupported;
    double p[2] = {n->frame[name[2] == 'P' ? 0 : 2], n->frame[name[2] == 'P' ? 1 : 3]};
    *out = axvalue_new(name[2] == 'P' ? kAXValueCGPointType : kAXValueCGSizeType, p, sizeof p);
    return 0;
  }
  if (n->winnum && !strcmp(name, "AXMinimized")) {
    *out = cf_retain(n->onscreen ? g_false : g_true);
    return 0;
  }
  if (!is_app && (!strcmp(name, "AXWindow") || !strcmp(name, "AXTopLevelUIElement"))) {
    Node *w = window_of(n);
    if (!w) return kAXErrorNoValue;
    *out = elem_for(w);
    return 0;
  }
  if (is_app) {
    if (!strcmp(name, "AXMenuBar")) {
      for (int i = 0; i < n->nkids; i++) {
        if (!strcmp(node_role(n->kids[i]), "AXMenuBar")) {
          *out = elem_for(n->kids[i]);
          return 0;
        }
      }
      return kAXErrorNoValue;
    }
    if (!strcmp(name, "AXWindows")) {
      *out = kids_array(n, true);
      return 0;
    }
    if (!strcmp(name, "AXFocusedUIElement")) {
      Node *f = node_focused(n);
      if (!f) return kAXErrorNoValue;
      *out = elem_for(f);
      return 0;
    }
    if (!strcmp(name, "AXFocusedWindow") || !strcmp(name, "AXMainWindow")) {
      Node *w = main_window(a);
      if (!w) return kAXErrorNoValue;
      *out = elem_for(w);
      return 0;
    }
    if (!strcmp(name, "AXFrontmost")) {
      *out = cf_bool(app_frontmost() == a);
      return 0;
    }
    if (!strcmp(name, "AXManualAccessibility")) {
      if (a->a11y_mode != 1) return kAXErrorAttributeUnsupported;
      *out = cf_bool(a->manual_on);
      return 0;
    }
    if (!strcmp(name, "AXEnhancedUserInterface")) {
      *out = cf_bool(a->enhanced_on);
      return 0;
    }
  }
  Val *v = node_attr(n, name);
  if (!v) return kAXErrorAttributeUnsupported;
  if (!strcmp(name, "AXValue") && node_is_secure(n)) {
    shim_note_secure_read();
    *out = cf_string("\xE2\x80\xA2\xE2\x80\xA2\xE2\x80\xA2"); /* AppKit masks it */
    return 0;
  }
  if (v->kind == V_NONE) return kAXErrorNoValue;
  *out = val_to_cf(v);
  return *out ? 0 : kAXErrorNoValue;
}

static AXError system_attr(const char *name, CFObj **out) {
  App *a = app_frontmost();
  if (!strcmp(name, "AXRole")) {
    *out = cf_string("AXSystemWide");
    return 0;
  }
  if (!strcmp(name, "AXFocusedApplication")) {
    if (!a) return kAXErrorNoValue;
    *out = elem_for(a->root);
    return 0;
  }
  if (!strcmp(name, "AXFocusedUIElement")) {
    Node *f = a ? node_focused(a->root) : NULL;
    if (!f) return kAXErrorNoValue;
    *out = elem_for(f);
    return 0;
  }
  return kAXErrorAttributeUnsupported;
}

EXPORT AXError AXUIElementCopyAttributeValue(CFObj *el, CFObj *attr, CFObj **out) {
  if (!out || !cf_is(attr, TID_STRING)) return kAXErrorIllegalArgument;
  *out = NULL;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return system_attr(attr->u.str.utf8, out);
  return read_attr(n, attr->u.str.utf8, out);
}

/* options 0: per-slot AXError placeholders; 1 (StopOnError): the first error is returned. */
EXPORT AXError AXUIElementCopyMultipleAttributeValues(CFObj *el, CFObj *names, uint32_t options, CFObj **out) {
  if (!out || !cf_is(names, TID_ARRAY)) return kAXErrorIllegalArgument;
  *out = NULL;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  CFIndex count = names->u.arr.count;
  CFObj **items = calloc(count + 1, sizeof(CFObj *));
  for (CFIndex i = 0; i < count; i++) {
    CFObj *name = names->u.arr.items[i];
    CFObj *v = NULL;
    AXError e = cf_is(name, TID_STRING) ? (n ? read_attr(n, name->u.str.utf8, &v) : system_attr(name->u.str.utf8, &v))
                                        : kAXErrorIllegalArgument;
    if (e && (options & 1)) {
      for (CFIndex k = 0; k < i; k++) cf_release(items[k]);
      free(items);
      return e;
    }
    /* Apple documents either an AXError placeholder or kCFNull in a failed slot. */
    if (e == kAXErrorNoValue) items[i] = cf_retain(g_null);
    else items[i] = e ? axvalue_new(kAXValueAXErrorType, &e, sizeof e) : v;
  }
  *out = cf_array_take(items, count);
  free(items);
  return 0;
}

static const char *COMPUTED[] = {"AXRole", "AXChildren", "AXParent", NULL};

EXPORT AXError AXUIElementCopyAttributeNames(CFObj *el, CFObj **out) {
  if (!out) return kAXErrorIllegalArgument;
  *out = NULL;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return kAXErrorAttributeUnsupported;
  CFObj **items = calloc(n->nattrs + 16, sizeof(CFObj *));
  int c = 0;
  for (int i = 0; COMPUTED[i]; i++)
    if (!node_attr(n, COMPUTED[i])) items[c++] = cf_string(COMPUTED[i]);
  if (n->has_frame) {
    items[c++] = cf_string("AXPosition");
    items[c++] = cf_string("AXSize");
  }
  for (int i = 0; i < n->nattrs; i++) items[c++] = cf_string(n->attrs[i].name);
  CFObj *arr = cf_array_take(items, c);
  free(items);
  *out = arr;
  return 0;
}

EXPORT AXError AXUIElementCopyActionNames(CFObj *el, CFObj **out) {
  if (!out) return kAXErrorIllegalArgument;
  *out = NULL;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return kAXErrorIllegalArgument;
  CFObj **items = calloc(n->nactions + 1, sizeof(CFObj *));
  for (int i = 0; i < n->nactions; i++) items[i] = cf_string(n->actions[i]);
  *out = cf_array_take(items, n->nactions);
  free(items);
  return 0;
}

EXPORT AXError AXUIElementPerformAction(CFObj *el, CFObj *action) {
  if (!cf_is(action, TID_STRING)) return kAXErrorIllegalArgument;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return kAXErrorActionUnsupported;
  return node_perform(n, action->u.str.utf8);
}

static bool is_settable(Node *n, const char *name, AXError *err) {
  App *a = n->app;
  *err = 0;
  if (n == a->root) {
    if (!strcmp(name, "AXFrontmost") || !strcmp(name, "AXEnhancedUserInterface")) return true;
    if (!strcmp(name, "AXManualAccessibility")) {
      if (a->a11y_mode == 1) return true;
      *err = kAXErrorAttributeUnsupported;
      return false;
    }
  }
  for (int i = 0; i < n->nattrs; i++)
    if (!strcmp(n->attrs[i].name, name)) return n->attrs[i].settable;
  /* Windows move, minimize and (unless the tree says "fixedSize": true) resize. */
  if (n->winnum && n->has_frame) {
    if (!strcmp(name, "AXPosition") || !strcmp(name, "AXMinimized")) return true;
    if (!strcmp(name, "AXSize")) {
      Val *fixed = node_attr(n, "fixedSize");
      return !(fixed && fixed->kind == V_BOOL && fixed->b);
    }
  }
  if (!strcmp(name, "AXChildren") || !strcmp(name, "AXParent") || !strcmp(name, "AXRole") ||
      (n->has_frame && (!strcmp(name, "AXPosition") || !strcmp(name, "AXSize"))))
    return false;
  *err = kAXErrorAttributeUnsupported;
  return false;
}

EXPORT AXError AXUIElementIsAttributeSettable(CFObj *el, CFObj *attr, Boolean *out) {
  if (!out || !cf_is(attr, TID_STRING)) return kAXErrorIllegalArgument;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return kAXErrorAttributeUnsupported;
  bool s = is_settable(n, attr->u.str.utf8, &err);
  if (err) return err;
  *out = s;
  return 0;
}

EXPORT AXError AXUIElementSetAttributeValue(CFObj *el, CFObj *attr, CFObj *value) {
  if (!cf_is(attr, TID_STRING) || !cf_check(value)) return kAXErrorIllegalArgument;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n) return kAXErrorAttributeUnsupported;
  const char *name = attr->u.str.utf8;
  if (!is_settable(n, name, &err)) return err ? err : kAXErrorFailure;
  App *a = n->app;
  shim_log("set %s %s", n->key ? n->key : node_role(n), name);
  bool is_bool = value->type == TID_BOOL;
  if (n == a->root) {
    if (!is_bool) return kAXErrorIllegalArgument;
    bool b = value->u.boolean.value;
    if (!strcmp(name, "AXFrontmost")) {
      if (b) app_set_frontmost(a);
    } else if (!strcmp(name, "AXManualAccessibility")) {
      if (b && !a->manual_on) a->enabled_at = now_seconds();
      a->manual_on = b;
    } else if (!strcmp(name, "AXEnhancedUserInterface")) {
      if (b && !a->enhanced_on) a->enabled_at = now_seconds();
      a->enhanced_on = b;
    }
    return 0;
  }
  if (!strcmp(name, "AXFocused")) {
    if (!is_bool) return kAXErrorIllegalArgument;
    if (value->u.boolean.value) node_set_focus(n);
    else node_attr(n, "AXFocused")->b = false;
    return 0;
  }
  if (!strcmp(name, "AXMain")) {
    if (!is_bool) return kAXErrorIllegalArgument;
    if (value->u.boolean.value && n->parent)
      for (int i = 0; i < n->parent->nkids; i++) {
        Val *m = node_attr(n->parent->kids[i], "AXMain");
        if (m) m->b = n->parent->kids[i] == n;
      }
    return 0;
  }
  if (n->winnum && value->type == TID_AXVALUE &&
      (!strcmp(name, "AXPosition") || !strcmp(name, "AXSize"))) {
    double d[2];
    memcpy(d, value->u.axvalue.bytes, sizeof d);
    int at = name[2] == 'P' ? 0 : 2;
    n->frame[at] = d[0];
    n->frame[at + 1] = d[1];
    return 0;
  }
  if (n->winnum && !strcmp(name, "AXMinimized")) {
    if (!is_bool) return kAXErrorIllegalArgument;
    n->onscreen = !value->u.boolean.value;
    return 0;
  }
  Val *cur = node_attr(n, name);
  Val next = {0};
  if (value->type == TID_STRING) {
    if (cur && (cur->kind == V_INT || cur->kind == V_REAL || cur->kind == V_BOOL)) return kAXErrorIllegalArgument;
    next.kind = V_STR;
    next.str = strdup(value->u.str.utf8);
  } else if (value->type == TID_NUMBER) {
    if (cur && cur->kind == V_STR) return kAXErrorIllegalArgument;
    next.num = value->u.num.d;
    next.kind = next.num == (double)(long long)next.num ? V_INT : V_REAL;
  } else if (is_bool) {
    next.kind = V_BOOL;
    next.b = value->u.boolean.value;
  } else {
    return kAXErrorIllegalArgument;
  }
  node_set_val(n, name, next);
  return 0;
}

/* AXValue. ---------------------------------------------------------------- */

static size_t axvalue_size(uint32_t type) {
  switch (type) {
    case kAXValueCGPointType:
    case kAXValueCGSizeType: return 16;
    case kAXValueCGRectType: return 32;
    case kAXValueCFRangeType: return 16;
    case kAXValueAXErrorType: return 4;
    default: return 0;
  }
}

EXPORT CFObj *AXValueCreate(uint32_t type, const void *p) {
  size_t n = axvalue_size(type);
  if (!n || !p) return NULL;
  return axvalue_new(type, p, n);
}

EXPORT uint32_t AXValueGetType(CFObj *v) { return cf_is(v, TID_AXVALUE) ? v->u.axvalue.type : 0; }

EXPORT Boolean AXValueGetValue(CFObj *v, uint32_t type, void *p) {
  if (!cf_is(v, TID_AXVALUE) || !p || v->u.axvalue.type != type) return false;
  memcpy(p, v->u.axvalue.bytes, axvalue_size(type));
  return true;
}

/* Observers and the run loop. ---------------------------------------------- */

typedef struct {
  App *app;
  Node *node;
  char *name;
} Pending;

static CFObj **g_observers = NULL;
static int g_nobservers = 0, g_capobservers = 0;
static Pending *g_pending = NULL;
static int g_npending = 0, g_cappending = 0;
static CFObj *g_runloop = NULL;

void observers_reset(void) {
  g_nobservers = 0;
  g_npending = 0;
}

void runloop_reset(void) {
  if (g_runloop) g_runloop->u.runloop.count = 0;
}

void queue_notification(App *a, Node *n, const char *name) {
  bool wanted = false;
  for (int i = 0; i < g_nobservers; i++)
    if (g_observers[i]->magic == MAGIC_LIVE && g_observers[i]->u.obs.pid == a->pid) wanted = true;
  if (!wanted) return;
  if (g_npending == g_cappending) {
    g_cappending = g_cappending ? g_cappending * 2 : 16;
    g_pending = realloc(g_pending, g_cappending * sizeof(Pending));
  }
  g_pending[g_npending++] = (Pending){a, n, strdup(name)};
}

EXPORT AXError AXObserverCreate(int pid, AXObserverCallback cb, CFObj **out) {
  if (!out || !cb) return kAXErrorIllegalArgument;
  *out = NULL;
  if (g_trust != 1) return kAXErrorAPIDisabled;
  tree_ensure();
  CFObj *o = cf_alloc(TID_AXOBSERVER);
  o->u.obs.pid = pid;
  o->u.obs.cb = cb;
  CFObj *src = cf_alloc(TID_SOURCE);
  src->u.source.observer = o;
  o->u.obs.source = src;
  if (g_nobservers == g_capobservers) {
    g_capobservers = g_capobservers ? g_capobservers * 2 : 8;
    g_observers = realloc(g_observers, g_capobservers * sizeof(CFObj *));
  }
  g_observers[g_nobservers++] = o;
  *out = o;
  return 0;
}

void ax_observer_destroy(CFObj *o) {
  for (int i = 0; i < o->u.obs.nregs; i++) cf_release(o->u.obs.regs[i].element);
  o->u.obs.nregs = 0;
  cf_release(o->u.obs.source);
  for (int i = 0; i < g_nobservers; i++)
    if (g_observers[i] == o) g_observers[i] = g_observers[--g_nobservers];
}

EXPORT AXError AXObserverAddNotification(CFObj *obs, CFObj *el, CFObj *name, void *refcon) {
  if (!cf_is(obs, TID_AXOBSERVER)) return kAXErrorInvalidUIElementObserver;
  if (!cf_is(name, TID_STRING)) return kAXErrorIllegalArgument;
  Node *n;
  AXError err = enter(el, &n);
  if (err) return err;
  if (!n || n->app->pid != obs->u.obs.pid) return kAXErrorIllegalArgument;
  for (int i = 0; i < obs->u.obs.nregs; i++) {
    ObsReg *r = &obs->u.obs.regs[i];
    if (cf_equal(r->element, el) && !strcmp(r->name, name->u.str.utf8)) return kAXErrorNotificationAlreadyRegistered;
  }
  obs->u.obs.regs = realloc(obs->u.obs.regs, (obs->u.obs.nregs + 1) * sizeof(ObsReg));
  obs->u.obs.regs[obs->u.obs.nregs++] = (ObsReg){cf_retain(el), strdup(name->u.str.utf8), refcon};
  return 0;
}

EXPORT AXError AXObserverRemoveNotification(CFObj *obs, CFObj *el, CFObj *name) {
  if (!cf_is(obs, TID_AXOBSERVER)) return kAXErrorInvalidUIElementObserver;
  if (!cf_is(name, TID_STRING) || !cf_is(el, TID_AXELEM)) return kAXErrorIllegalArgument;
  for (int i = 0; i < obs->u.obs.nregs; i++) {
    ObsReg *r = &obs->u.obs.regs[i];
    if (cf_equal(r->element, el) && !strcmp(r->name, name->u.str.utf8)) {
      cf_release(r->element);
      free(r->name);
      *r = obs->u.obs.regs[--obs->u.obs.nregs];
      return 0;
    }
  }
  return kAXErrorNotificationNotRegistered;
}

/* Get rule: the observer keeps ownership of its source. */
EXPORT CFObj *AXObserverGetRunLoopSource(CFObj *obs) {
  return cf_is(obs, TID_AXOBSERVER) ? obs->u.obs.source : NULL;
}

EXPORT CFObj *CFRunLoopGetCurrent(void) {
  if (!g_runloop) {
    g_runloop = cf_make_static(TID_RUNLOOP);
  }
  return g_runloop;
}

EXPORT void CFRunLoopAddSource(CFObj *rl, CFObj *src, CFObj *mode) {
  if (!cf_is(rl, TID_RUNLOOP) || !cf_is(src, TID_SOURCE) || !cf_is(mode, TID_STRING)) return;
  for (int i = 0; i < rl->u.runloop.count; i++)
    if (rl->u.runloop.sources[i] == src) return;
  rl->u.runloop.sources = realloc(rl->u.runloop.sources, (rl->u.runloop.count + 1) * sizeof(CFObj *));
  rl->u.runloop.sources[rl->u.runloop.count++] = cf_retain(src);
}

EXPORT void CFRunLoopRemoveSource(CFObj *rl, CFObj *src, CFObj *mode) {
  if (!cf_is(rl, TID_RUNLOOP) || !cf_check(src) || !cf_is(mode, TID_STRING)) return;
  for (int i = 0; i < rl->u.runloop.count; i++)
    if (rl->u.runloop.sources[i] == src) {
      rl->u.runloop.sources[i] = rl->u.runloop.sources[--rl->u.runloop.count];
      cf_release(src);
      return;
    }
}

static bool reg_matches(const ObsReg *r, const Pending *p) {
  if (strcmp(r->name, p->name)) return false;
  CFObj *e = r->element;
  if (e->magic != MAGIC_LIVE || e->u.ax.kind != 0) return false;
  return e->u.ax.node == p->node || e->u.ax.node == p->app->root; /* the app element hears everything */
}

/* Delivers one pending notification to every observer whose source is in this run loop. */
static bool deliver_one(CFObj *rl) {
  while (g_npending > 0) {
    Pending p = g_pending[0];
    memmove(g_pending, g_pending + 1, (g_npending - 1) * sizeof(Pending));
    g_npending--;
    bool delivered = false;
    for (int s = 0; s < rl->u.runloop.count; s++) {
      CFObj *obs = rl->u.runloop.sources[s]->u.source.observer;
      if (!obs || obs->magic != MAGIC_LIVE || obs->u.obs.pid != p.app->pid) continue;
      for (int i = 0; i < obs->u.obs.nregs; i++) {
        if (!reg_matches(&obs->u.obs.regs[i], &p)) continue;
        /* Arguments follow the Get rule: the callee must not release them. */
        CFObj *el = elem_for(p.node);
        CFObj *name = cf_string(p.name);
        obs->u.obs.cb(obs, el, name, obs->u.obs.regs[i].refcon);
        cf_release(el);
        cf_release(name);
        delivered = true;
        break;
      }
    }
    free(p.name);
    if (delivered) return true;
  }
  return false;
}

/* kCFRunLoopRunFinished 1, kCFRunLoopRunTimedOut 3, kCFRunLoopRunHandledSource 4. */
EXPORT int32_t CFRunLoopRunInMode(CFObj *mode, double seconds, Boolean returnAfterSourceHandled) {
  CFObj *rl = CFRunLoopGetCurrent();
  if (!cf_is(mode, TID_STRING) || rl->u.runloop.count == 0) return 1;
  double end = now_seconds() + (seconds > 0 ? seconds : 0);
  bool handled = false;
  do {
    while (deliver_one(rl)) {
      handled = true;
      if (returnAfterSourceHandled) return 4;
    }
    if (now_seconds() >= end) break;
    sleep_ms(5);
  } while (true);
  return handled ? 4 : 3;
}
