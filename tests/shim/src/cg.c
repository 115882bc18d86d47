/*
 * CoreGraphics subset: the window list (CGWindowListCopyWindowInfo) and
 * synthesized input (CGEvent*), routed into the in-memory tree so clicks,
 * typing, scrolling and drags have observable effects.
 */
#include <stdlib.h>
#include <string.h>

#include "shim.h"

typedef struct {
  double x, y;
} CGPoint;
typedef struct {
  CGPoint origin;
  struct {
    double w, h;
  } size;
} CGRect;

EXPORT const void *kCGWindowOwnerPID = NULL;
EXPORT const void *kCGWindowOwnerName = NULL;
EXPORT const void *kCGWindowName = NULL;
EXPORT const void *kCGWindowBounds = NULL;
EXPORT const void *kCGWindowLayer = NULL;
EXPORT const void *kCGWindowNumber = NULL;
extern const void *kAXTrustedCheckOptionPrompt;

static CFObj *static_string(const char *s) {
  CFObj *o = cf_string(s);
  o->base = 1;
  return o;
}

__attribute__((constructor)) static void cg_init(void) {
  kCGWindowOwnerPID = static_string("kCGWindowOwnerPID");
  kCGWindowOwnerName = static_string("kCGWindowOwnerName");
  kCGWindowName = static_string("kCGWindowName");
  kCGWindowBounds = static_string("kCGWindowBounds");
  kCGWindowLayer = static_string("kCGWindowLayer");
  kCGWindowNumber = static_string("kCGWindowNumber");
  kAXTrustedCheckOptionPrompt = static_string("AXTrustedCheckOptionPrompt");
}

static CFObj *rect_dict(const double *f) {
  CFObj *keys[4] = {cf_string("X"), cf_string("Y"), cf_string("Width"), cf_string("Height")};
  CFObj *vals[4];
  for (int i = 0; i < 4; i++) vals[i] = cf_number_double(f[i]);
  return cf_dict_take(keys, vals, 4);
}

static void add_window(CFObj ***items, int *n, int *cap, App *a, Node *w) {
  Val *title = node_attr(w, "AXTitle");
  CFObj *keys[6] = {cf_retain((CFObj *)kCGWindowOwnerPID), cf_retain((CFObj *)kCGWindowOwnerName),
                    cf_retain((CFObj *)kCGWindowName), cf_retain((CFObj *)kCGWindowBounds),
                    cf_retain((CFObj *)kCGWindowLayer), cf_retain((CFObj *)kCGWindowNumber)};
  CFObj *vals[6] = {cf_number_int(a->pid), cf_string(a->name),
                    cf_string(title && title->kind == V_STR ? title->str : ""), rect_dict(w->frame),
                    cf_number_int(w->layer), cf_number_int(w->winnum)};
  if (*n == *cap) {
    *cap = *cap ? *cap * 2 : 16;
    *items = realloc(*items, *cap * sizeof(CFObj *));
  }
  (*items)[(*n)++] = cf_dict_take(keys, vals, 6);
}

/* kCGWindowListOptionOnScreenOnly = 1: minimized windows are left out. Front to back. */
EXPORT CFObj *CGWindowListCopyWindowInfo(uint32_t option, uint32_t relativeTo) {
  (void)relativeTo;
  tree_ensure();
  CFObj **items = NULL;
  int n = 0, cap = 0;
  App *front = app_frontmost();
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < g_napps; i++) {
      App *a = g_apps[i];
      if (a->removed || (pass == 0) != (a == front)) continue;
      for (int k = 0; k < a->root->nkids; k++) {
        Node *w = a->root->kids[k];
        if (w->dead || !w->winnum || ((option & 1) && !w->onscreen)) continue;
        add_window(&items, &n, &cap, a, w);
      }
    }
  CFObj *arr = cf_array_take(items, n);
  free(items);
  return arr;
}

EXPORT Boolean CGRectMakeWithDictionaryRepresentation(CFObj *dict, CGRect *rect) {
  if (!cf_is(dict, TID_DICT) || !rect) return false;
  static const char *names[4] = {"X", "Y", "Width", "Height"};
  double v[4];
  for (int i = 0; i < 4; i++) {
    CFObj *key = cf_string(names[i]);
    CFObj *num = CFDictionaryGetValue(dict, key);
    cf_release(key);
    if (!cf_is(num, TID_NUMBER)) return false;
    v[i] = num->u.num.d;
  }
  rect->origin.x = v[0];
  rect->origin.y = v[1];
  rect->size.w = v[2];
  rect->size.h = v[3];
  return true;
}

/* Events. ------------------------------------------------------------------- */

static CFObj *event_new(uint32_t type) {
  CFObj *o = cf_alloc(TID_CGEVENT);
  o->u.ev.type = type;
  o->u.ev.click_state = 1;
  return o;
}

EXPORT CFObj *CGEventCreateMouseEvent(void *source, uint32_t type, CGPoint at, uint32_t button) {
  (void)source;
  CFObj *o = event_new(type);
  o->u.ev.x = at.x;
  o->u.ev.y = at.y;
  o->u.ev.button = button;
  return o;
}

EXPORT CFObj *CGEventCreateKeyboardEvent(void *source, uint16_t key, bool down) {
  (void)source;
  CFObj *o = event_new(down ? 10 : 11);
  o->u.ev.keycode = key;
  o->u.ev.keydown = down;
  return o;
}

EXPORT void CGEventKeyboardSetUnicodeString(CFObj *ev, unsigned long len, const uint16_t *text) {
  if (!cf_is(ev, TID_CGEVENT)) return;
  if (len > 64) len = 64;
  ev->u.ev.text_len = (int)len;
  if (len) memcpy(ev->u.ev.text, text, len * 2);
}

EXPORT void CGEventSetFlags(CFObj *ev, uint64_t flags) {
  if (cf_is(ev, TID_CGEVENT)) ev->u.ev.flags = flags;
}

/* kCGMouseEventClickState = 1. */
EXPORT void CGEventSetIntegerValueField(CFObj *ev, uint32_t field, int64_t value) {
  if (cf_is(ev, TID_CGEVENT) && field == 1) ev->u.ev.click_state = value;
}

EXPORT CFObj *CGEventCreateScrollWheelEvent2(void *source, uint32_t units, uint32_t count, int32_t w1,
                                             int32_t w2, int32_t w3) {
  (void)source;
  CFObj *o = event_new(22);
  o->u.ev.scroll_units = units;
  o->u.ev.wheel_count = count;
  o->u.ev.wheel[0] = w1;
  o->u.ev.wheel[1] = count > 1 ? w2 : 0;
  o->u.ev.wheel[2] = count > 2 ? w3 : 0;
  return o;
}

static double g_mouse_x = 0, g_mouse_y = 0;
static Node *g_down_node = NULL;
static bool g_dragged = false;

static Node *hit_any(double x, double y) {
  Node *n = node_hit(app_frontmost(), x, y);
  for (int i = 0; !n && i < g_napps; i++)
    if (!g_apps[i]->removed) n = node_hit(g_apps[i], x, y);
  return n;
}

/* Mouse events carry no location when posted at the cursor; scroll events go where the cursor is. */
EXPORT void CGEventPost(uint32_t tap, CFObj *ev) {
  (void)tap;
  if (!cf_is(ev, TID_CGEVENT)) return;
  tree_ensure();
  EventData *e = &ev->u.ev;
  switch (e->type) {
    case 1: case 3: case 25: /* mouse down */
      g_mouse_x = e->x;
      g_mouse_y = e->y;
      g_down_node = hit_any(e->x, e->y);
      g_dragged = false;
      shim_log("mouse down button=%u at %.0f,%.0f clicks=%lld", e->button, e->x, e->y, (long long)e->click_state);
      break;
    case 6: case 7: case 27: /* dragged */
      g_mouse_x = e->x;
      g_mouse_y = e->y;
      g_dragged = true;
      break;
    case 2: case 4: case 26: { /* mouse up */
      g_mouse_x = e->x;
      g_mouse_y = e->y;
      Node *up = hit_any(e->x, e->y);
      shim_log("mouse up button=%u at %.0f,%.0f clicks=%lld", e->button, e->x, e->y, (long long)e->click_state);
      if (g_down_node && g_dragged) node_drag(g_down_node, up, e->x, e->y);
      else if (g_down_node && up == g_down_node && e->type == 2) node_click(up);
      g_down_node = NULL;
      break;
    }
    case 5: /* moved */
      g_mouse_x = e->x;
      g_mouse_y = e->y;
      break;
    case 10: case 11:
      node_key(app_frontmost(), e);
      break;
    case 22: {
      Node *n = hit_any(g_mouse_x, g_mouse_y);
      if (n) node_scroll(n, e->wheel[0], e->wheel[1]);
      else shim_log("scroll nowhere at %.0f,%.0f", g_mouse_x, g_mouse_y);
      break;
    }
    default:
      break;
  }
}

/* Screenshots. -------------------------------------------------------------
 * CGWindowListCreateImage draws the screen as the shim knows it: a dark desktop,
 * each on-screen window a light rectangle (back to front, the frontmost app last),
 * each element with a frame outlined darker inside its window, at a backing
 * scale of 2 pixels per point (Retina) unless shim_set_backing_scale says
 * otherwise. Pixels are BGRA with premultiplied alpha first, little-endian, and
 * rows padded to 64 bytes, as CoreGraphics hands them out.
 */

static int g_backing_scale = 2;

EXPORT void shim_set_backing_scale(int scale) { g_backing_scale = scale > 0 ? scale : 1; }

static void paint(CFObj *img, double ox, double oy, const double *f, unsigned char r,
                  unsigned char g, unsigned char b, bool outline) {
  int s = g_backing_scale;
  long x0 = (long)((f[0] - ox) * s), y0 = (long)((f[1] - oy) * s);
  long x1 = (long)((f[0] + f[2] - ox) * s), y1 = (long)((f[1] + f[3] - oy) * s);
  for (long y = y0 < 0 ? 0 : y0; y < y1 && y < (long)img->u.img.h; y++)
    for (long x = x0 < 0 ? 0 : x0; x < x1 && x < (long)img->u.img.w; x++) {
      if (outline && x > x0 && x < x1 - 1 && y > y0 && y < y1 - 1) continue;
      unsigned char *p = img->u.img.provider->u.data.bytes + y * img->u.img.bpr + x * 4;
      p[0] = b, p[1] = g, p[2] = r, p[3] = 255;
    }
}

static void paint_elements(CFObj *img, double ox, double oy, Node *n) {
  for (int k = 0; k < n->nkids; k++) {
    Node *c = n->kids[k];
    if (c->dead) continue;
    if (c->has_frame) paint(img, ox, oy, c->frame, 90, 90, 160, true);
    paint_elements(img, ox, oy, c);
  }
}

EXPORT CFObj *CGWindowListCreateImage(CGRect rect, uint32_t option, uint32_t windowID,
                                      uint32_t imageOption) {
  (void)option, (void)windowID, (void)imageOption;
  tree_ensure();
  if (rect.size.w <= 0 || rect.size.h <= 0) return NULL;
  int s = g_backing_scale;
  CFObj *img = cf_alloc(TID_CGIMAGE);
  img->u.img.w = (size_t)(rect.size.w * s);
  img->u.img.h = (size_t)(rect.size.h * s);
  img->u.img.bpr = (img->u.img.w * 4 + 63) / 64 * 64;
  img->u.img.info = 2 | (2 << 12); /* kCGImageAlphaPremultipliedFirst | kCGBitmapByteOrder32Little */
  CFObj *prov = cf_alloc(TID_CGDATAPROVIDER);
  prov->u.data.len = (CFIndex)(img->u.img.bpr * img->u.img.h);
  prov->u.data.bytes = malloc((size_t)prov->u.data.len);
  img->u.img.provider = prov;
  double screen[4] = {rect.origin.x, rect.origin.y, rect.size.w, rect.size.h};
  paint(img, rect.origin.x, rect.origin.y, screen, 40, 40, 40, false);
  App *front = app_frontmost();
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < g_napps; i++) {
      App *a = g_apps[i];
      if (a->removed || (pass == 1) != (a == front)) continue;
      for (int k = 0; k < a->root->nkids; k++) {
        Node *w = a->root->kids[k];
        if (w->dead || !w->winnum || !w->onscreen || !w->has_frame) continue;
        paint(img, rect.origin.x, rect.origin.y, w->frame, 236, 236, 236, false);
        paint_elements(img, rect.origin.x, rect.origin.y, w);
      }
    }
  return img;
}

EXPORT uint32_t CGMainDisplayID(void) { return 1; }

EXPORT CGRect CGDisplayBounds(uint32_t display) {
  (void)display;
  CGRect r = {{0, 0}, {1440, 900}};
  return r;
}

static bool is_image(CFObj *o) {
  if (cf_is(o, TID_CGIMAGE)) return true;
  shim_note_bad_use();
  return false;
}

EXPORT size_t CGImageGetWidth(CFObj *o) { return is_image(o) ? o->u.img.w : 0; }
EXPORT size_t CGImageGetHeight(CFObj *o) { return is_image(o) ? o->u.img.h : 0; }
EXPORT size_t CGImageGetBytesPerRow(CFObj *o) { return is_image(o) ? o->u.img.bpr : 0; }
EXPORT size_t CGImageGetBitsPerPixel(CFObj *o) { return is_image(o) ? 32 : 0; }
EXPORT uint32_t CGImageGetBitmapInfo(CFObj *o) { return is_image(o) ? o->u.img.info : 0; }

/* Get rule: the provider belongs to the image. */
EXPORT CFObj *CGImageGetDataProvider(CFObj *o) { return is_image(o) ? o->u.img.provider : NULL; }

/* Copy rule: the CFData is the caller's. */
EXPORT CFObj *CGDataProviderCopyData(CFObj *p) {
  if (!cf_is(p, TID_CGDATAPROVIDER)) {
    shim_note_bad_use();
    return NULL;
  }
  CFObj *d = cf_alloc(TID_DATA);
  d->u.data.len = p->u.data.len;
  d->u.data.bytes = malloc((size_t)d->u.data.len);
  memcpy(d->u.data.bytes, p->u.data.bytes, (size_t)d->u.data.len);
  return d;
}

/* Pasteboard Manager (HIServices): one general pasteboard holding at most one
 * item, kept across PasteboardRefs as the pasteboard server keeps it across
 * processes. Only the UTF-8 plain text flavor is stored.
 */

static unsigned char *g_pb_bytes = NULL;
static CFIndex g_pb_len = -1; /* -1: empty */
static uintptr_t g_pb_item = 0;

#define UTF8_FLAVOR "public.utf8-plain-text"

static bool is_pasteboard(CFObj *o) {
  if (cf_is(o, TID_PASTEBOARD)) return true;
  shim_note_bad_use();
  return false;
}

EXPORT int32_t PasteboardCreate(CFObj *name, CFObj **out) {
  if (!out || (name && !cf_is(name, TID_STRING))) return -50; /* paramErr */
  *out = cf_alloc(TID_PASTEBOARD);
  return 0;
}

EXPORT int32_t PasteboardClear(CFObj *pb) {
  if (!is_pasteboard(pb)) return -50;
  free(g_pb_bytes);
  g_pb_bytes = NULL;
  g_pb_len = -1;
  g_pb_item = 0;
  return 0;
}

EXPORT uint32_t PasteboardSynchronize(CFObj *pb) {
  (void)is_pasteboard(pb);
  return 0;
}

EXPORT int32_t PasteboardPutItemFlavor(CFObj *pb, uintptr_t item, CFObj *flavor, CFObj *data,
                                       uint32_t flags) {
  (void)flags;
  if (!is_pasteboard(pb) || !cf_is(flavor, TID_STRING) || !cf_is(data, TID_DATA) || !item)
    return -50;
  if (strcmp(cf_str_utf8(flavor), UTF8_FLAVOR)) return 0;
  free(g_pb_bytes);
  g_pb_len = data->u.data.len;
  g_pb_bytes = malloc((size_t)g_pb_len + 1);
  memcpy(g_pb_bytes, data->u.data.bytes, (size_t)g_pb_len);
  g_pb_item = item;
  shim_log("pasteboard put %ld bytes", (long)g_pb_len);
  return 0;
}

EXPORT int32_t PasteboardGetItemCount(CFObj *pb, unsigned long *out) {
  if (!is_pasteboard(pb) || !out) return -50;
  *out = g_pb_len >= 0 ? 1 : 0;
  return 0;
}

EXPORT int32_t PasteboardGetItemIdentifier(CFObj *pb, CFIndex index, uintptr_t *out) {
  if (!is_pasteboard(pb) || !out) return -50;
  if (index != 1 || g_pb_len < 0) return -25163; /* badPasteboardIndexErr */
  *out = g_pb_item;
  return 0;
}

EXPORT int32_t PasteboardCopyItemFlavorData(CFObj *pb, uintptr_t item, CFObj *flavor,
                                            CFObj **out) {
  if (!is_pasteboard(pb) || !cf_is(flavor, TID_STRING) || !out) return -50;
  if (g_pb_len < 0 || item != g_pb_item) return -25134; /* badPasteboardItemErr */
  if (strcmp(cf_str_utf8(flavor), UTF8_FLAVOR)) return -25133; /* badPasteboardFlavorErr */
  CFObj *d = cf_alloc(TID_DATA);
  d->u.data.len = g_pb_len;
  d->u.data.bytes = malloc((size_t)g_pb_len + 1);
  memcpy(d->u.data.bytes, g_pb_bytes, (size_t)g_pb_len);
  *out = d;
  return 0;
}

EXPORT CFObj *CFDataCreate(void *alloc, const unsigned char *bytes, CFIndex len) {
  (void)alloc;
  if (len < 0 || (len > 0 && !bytes)) return NULL;
  CFObj *d = cf_alloc(TID_DATA);
  d->u.data.len = len;
  d->u.data.bytes = malloc((size_t)len + 1);
  if (len) memcpy(d->u.data.bytes, bytes, (size_t)len);
  return d;
}
