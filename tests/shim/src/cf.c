/*
 * CoreFoundation subset: objects with type ids and retain counts, strings,
 * arrays, dictionaries, numbers, booleans, equality, and the accounting that
 * lets tests prove every owned reference was released exactly once.
 */
#include <stdlib.h>
#include <string.h>

#include "shim.h"

static CFObj *g_registry = NULL;
static int64_t g_double_frees = 0;
static int64_t g_bad_uses = 0;
static int64_t g_created = 0;
static int64_t g_secure_reads = 0;

CFObj *g_true = NULL;
CFObj *g_false = NULL;
CFObj *g_null = NULL;

/* Exported statics, as CoreFoundation declares them. */
EXPORT const void *kCFBooleanTrue = NULL;
EXPORT const void *kCFBooleanFalse = NULL;
EXPORT const void *kCFNull = NULL;
EXPORT const void *kCFRunLoopDefaultMode = NULL;
EXPORT const void *kCFAllocatorDefault = NULL;

/* CFArrayCallBacks / CFDictionary*CallBacks layouts; only their address matters here. */
typedef struct {
  CFIndex version;
  void *retain, *release, *copyDescription, *equal, *hash;
} CallBacks;
EXPORT const CallBacks kCFTypeArrayCallBacks = {0, 0, 0, 0, 0, 0};
EXPORT const CallBacks kCFTypeDictionaryKeyCallBacks = {0, 0, 0, 0, 0, 0};
EXPORT const CallBacks kCFTypeDictionaryValueCallBacks = {0, 0, 0, 0, 0, 0};

CFObj *cf_alloc(CFTypeID type) {
  CFObj *o = calloc(1, sizeof(CFObj));
  o->magic = MAGIC_LIVE;
  o->type = type;
  o->retain = 1;
  o->next = g_registry;
  g_registry = o;
  g_created++;
  return o;
}

/* A static object: the shim holds one reference forever (like kCFBooleanTrue). */
CFObj *cf_make_static(CFTypeID type) {
  CFObj *o = cf_alloc(type);
  o->base = 1;
  g_created--;
  return o;
}

void shim_note_bad_use(void) { g_bad_uses++; }
void shim_note_secure_read(void) { g_secure_reads++; }

bool cf_check(const CFObj *o) {
  if (o == NULL) return false;
  if (o->magic == MAGIC_LIVE) return true;
  g_bad_uses++;
  return false;
}

bool cf_is(const CFObj *o, CFTypeID type) { return cf_check(o) && o->type == type; }

static void cf_destroy(CFObj *o);

CFObj *cf_retain(CFObj *o) {
  if (!cf_check(o)) return o;
  o->retain++;
  return o;
}

void cf_release(CFObj *o) {
  if (o == NULL) return;
  if (o->magic != MAGIC_LIVE || o->retain <= o->base) {
    g_double_frees++;
    return;
  }
  o->retain--;
  if (o->retain == 0) cf_destroy(o);
}

void ax_observer_destroy(CFObj *o);
void runloop_forget_source(CFObj *src);

/* Releases what an object owns and moves it to the graveyard. */
static void cf_destroy(CFObj *o) {
  switch (o->type) {
    case TID_ARRAY:
      if (o->u.arr.retains)
        for (CFIndex i = 0; i < o->u.arr.count; i++) cf_release(o->u.arr.items[i]);
      break;
    case TID_DICT:
      if (o->u.dict.retains)
        for (CFIndex i = 0; i < o->u.dict.count; i++) {
          cf_release(o->u.dict.keys[i]);
          cf_release(o->u.dict.values[i]);
        }
      break;
    case TID_AXOBSERVER:
      ax_observer_destroy(o);
      break;
    case TID_CGIMAGE:
      cf_release(o->u.img.provider);
      break;
    default:
      break;
  }
  o->magic = MAGIC_DEAD;
}

CFObj *cf_string(const char *utf8) {
  CFObj *o = cf_alloc(TID_STRING);
  o->u.str.utf8 = strdup(utf8 ? utf8 : "");
  CFIndex n = 0;
  for (const unsigned char *p = (const unsigned char *)o->u.str.utf8; *p; p++) {
    if ((*p & 0xC0) == 0x80) continue;
    n += (*p >= 0xF0) ? 2 : 1; /* 4-byte sequences are surrogate pairs in UTF-16 */
  }
  o->u.str.utf16_len = n;
  return o;
}

const char *cf_str_utf8(const CFObj *s) {
  if (!cf_is(s, TID_STRING)) return NULL;
  return s->u.str.utf8;
}

CFObj *cf_number_int(int64_t v) {
  CFObj *o = cf_alloc(TID_NUMBER);
  o->u.num.i = v;
  o->u.num.d = (double)v;
  o->u.num.type = 4; /* kCFNumberSInt64Type */
  return o;
}

CFObj *cf_number_double(double v) {
  CFObj *o = cf_alloc(TID_NUMBER);
  o->u.num.is_float = true;
  o->u.num.d = v;
  o->u.num.i = (int64_t)v;
  o->u.num.type = 6; /* kCFNumberFloat64Type */
  return o;
}

/* Booleans are static singletons: a Copy returns them retained, as CF does. */
CFObj *cf_bool(bool v) { return cf_retain(v ? g_true : g_false); }

CFObj *cf_array_take(CFObj **items, CFIndex n) {
  CFObj *o = cf_alloc(TID_ARRAY);
  o->u.arr.items = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.arr.count = n;
  o->u.arr.retains = true;
  for (CFIndex i = 0; i < n; i++) o->u.arr.items[i] = items[i]; /* the creation ref moves in */
  return o;
}

CFObj *cf_dict_take(CFObj **keys, CFObj **values, CFIndex n) {
  CFObj *o = cf_alloc(TID_DICT);
  o->u.dict.keys = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.dict.values = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.dict.count = n;
  o->u.dict.retains = true;
  for (CFIndex i = 0; i < n; i++) {
    o->u.dict.keys[i] = keys[i];
    o->u.dict.values[i] = values[i];
  }
  return o;
}

bool cf_equal(const CFObj *a, const CFObj *b) {
  if (a == b) return true;
  if (!cf_check(a) || !cf_check(b) || a->type != b->type) return false;
  switch (a->type) {
    case TID_STRING:
      return strcmp(a->u.str.utf8, b->u.str.utf8) == 0;
    case TID_NUMBER:
      return a->u.num.d == b->u.num.d;
    case TID_AXELEM:
      return a->u.ax.kind == b->u.ax.kind && a->u.ax.node == b->u.ax.node &&
             a->u.ax.pid == b->u.ax.pid;
    default:
      return false;
  }
}

/* Accounting. ---------------------------------------------------------- */

void cf_reset_accounting(void) {
  /* Objects from an earlier scenario no longer count as leaks of the next one. */
  for (CFObj *o = g_registry; o; o = o->next) {
    if (o->magic == MAGIC_LIVE && o->base == 0) o->magic = MAGIC_DEAD;
    if (o->magic == MAGIC_LIVE && o->base > 0) o->retain = o->base;
  }
  g_double_frees = 0;
  g_bad_uses = 0;
  g_created = 0;
  g_secure_reads = 0;
}

/*
 * out[0] leaks: references callers still hold (live objects plus extra
 *        references on static objects);
 * out[1] double frees (releases of freed objects or past the retain count);
 * out[2] live objects;
 * out[3] uses of freed objects;
 * out[4] reads of a secure text field's AXValue;
 * out[5] objects created since the last reset.
 */
EXPORT void shim_stats(int64_t *out, int n) {
  int64_t live = 0, extra = 0;
  for (CFObj *o = g_registry; o; o = o->next) {
    if (o->magic != MAGIC_LIVE) continue;
    if (o->base == 0) {
      live++;
    } else if (o->retain > o->base) {
      extra += o->retain - o->base;
    }
  }
  int64_t vals[6] = {live + extra, g_double_frees, live, g_bad_uses, g_secure_reads, g_created};
  for (int i = 0; i < n && i < 6; i++) out[i] = vals[i];
}

/* Public CF API. --------------------------------------------------------- */

EXPORT void CFRelease(CFObj *o) {
  if (o == NULL) {
    g_bad_uses++; /* CFRelease(NULL) crashes on macOS */
    return;
  }
  cf_release(o);
}

EXPORT CFObj *CFRetain(CFObj *o) {
  if (o == NULL) {
    g_bad_uses++;
    return NULL;
  }
  return cf_retain(o);
}

EXPORT CFIndex CFGetRetainCount(CFObj *o) { return cf_check(o) ? o->retain : 0; }
EXPORT CFTypeID CFGetTypeID(CFObj *o) { return cf_check(o) ? o->type : 0; }

EXPORT CFIndex CFDataGetLength(CFObj *o) {
  if (!cf_check(o) || o->type != TID_DATA) return 0;
  return o->u.data.len;
}

EXPORT const unsigned char *CFDataGetBytePtr(CFObj *o) {
  if (!cf_check(o) || o->type != TID_DATA) return NULL;
  return o->u.data.bytes;
}
EXPORT Boolean CFEqual(CFObj *a, CFObj *b) { return cf_equal(a, b); }

EXPORT CFHashCode CFHash(CFObj *o) {
  if (!cf_check(o)) return 0;
  if (o->type == TID_STRING) {
    CFHashCode h = 5381;
    for (const char *p = o->u.str.utf8; *p; p++) h = h * 33 + (unsigned char)*p;
    return h;
  }
  if (o->type == TID_AXELEM) return (CFHashCode)(uintptr_t)o->u.ax.node ^ (CFHashCode)o->u.ax.pid;
  return (CFHashCode)(uintptr_t)o;
}

EXPORT CFTypeID CFStringGetTypeID(void) { return TID_STRING; }
EXPORT CFTypeID CFArrayGetTypeID(void) { return TID_ARRAY; }
EXPORT CFTypeID CFDictionaryGetTypeID(void) { return TID_DICT; }
EXPORT CFTypeID CFNumberGetTypeID(void) { return TID_NUMBER; }
EXPORT CFTypeID CFBooleanGetTypeID(void) { return TID_BOOL; }
EXPORT CFTypeID CFNullGetTypeID(void) { return TID_NULL; }

EXPORT CFObj *CFStringCreateWithCString(void *alloc, const char *s, CFStringEncoding enc) {
  (void)alloc;
  if (s == NULL || enc != kCFStringEncodingUTF8) return NULL;
  return cf_string(s);
}

EXPORT CFObj *CFStringCreateWithBytes(void *alloc, const unsigned char *bytes, CFIndex n,
                                      CFStringEncoding enc, Boolean external) {
  (void)alloc;
  (void)external;
  if (enc != kCFStringEncodingUTF8 || n < 0 || (bytes == NULL && n > 0)) return NULL;
  char *tmp = malloc(n + 1);
  if (n) memcpy(tmp, bytes, n);
  tmp[n] = 0;
  CFObj *o = cf_string(tmp);
  free(tmp);
  return o;
}

EXPORT CFIndex CFStringGetLength(CFObj *s) { return cf_is(s, TID_STRING) ? s->u.str.utf16_len : 0; }

EXPORT CFIndex CFStringGetMaximumSizeForEncoding(CFIndex len, CFStringEncoding enc) {
  return enc == kCFStringEncodingUTF8 ? len * 3 : len * 2;
}

EXPORT Boolean CFStringGetCString(CFObj *s, char *buf, CFIndex size, CFStringEncoding enc) {
  if (!cf_is(s, TID_STRING) || buf == NULL || enc != kCFStringEncodingUTF8) return false;
  size_t n = strlen(s->u.str.utf8);
  if ((CFIndex)n + 1 > size) return false;
  memcpy(buf, s->u.str.utf8, n + 1);
  return true;
}

/* Byte offset of a UTF-16 index in UTF-8 text (a 4-byte sequence counts as two units). */
static size_t utf8_offset(const char *s, CFIndex units) {
  const unsigned char *p = (const unsigned char *)s;
  CFIndex u = 0;
  size_t i = 0;
  while (p[i] && u < units) {
    unsigned char c = p[i];
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    u += len == 4 ? 2 : 1;
    i += len;
  }
  return i;
}

typedef struct {
  CFIndex location, length;
} CFRange;

EXPORT CFObj *CFStringCreateWithSubstring(void *alloc, CFObj *s, CFRange range) {
  (void)alloc;
  if (!cf_is(s, TID_STRING) || range.location < 0 || range.length < 0 ||
      range.location + range.length > s->u.str.utf16_len) {
    g_bad_uses++; /* out of range is undefined behaviour on macOS */
    return NULL;
  }
  size_t from = utf8_offset(s->u.str.utf8, range.location);
  size_t to = utf8_offset(s->u.str.utf8, range.location + range.length);
  char *tmp = strndup(s->u.str.utf8 + from, to - from);
  CFObj *o = cf_string(tmp);
  free(tmp);
  return o;
}

EXPORT CFObj *CFArrayCreate(void *alloc, CFObj **values, CFIndex n, const CallBacks *cb) {
  (void)alloc;
  if (n < 0 || (values == NULL && n > 0)) return NULL;
  CFObj *o = cf_alloc(TID_ARRAY);
  o->u.arr.items = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.arr.count = n;
  o->u.arr.retains = cb == &kCFTypeArrayCallBacks;
  for (CFIndex i = 0; i < n; i++) {
    o->u.arr.items[i] = values[i];
    if (o->u.arr.retains) cf_retain(values[i]);
  }
  return o;
}

EXPORT CFIndex CFArrayGetCount(CFObj *a) { return cf_is(a, TID_ARRAY) ? a->u.arr.count : 0; }

EXPORT CFObj *CFArrayGetValueAtIndex(CFObj *a, CFIndex i) {
  if (!cf_is(a, TID_ARRAY) || i < 0 || i >= a->u.arr.count) {
    g_bad_uses++; /* out of bounds is undefined behaviour on macOS */
    return NULL;
  }
  return a->u.arr.items[i];
}

EXPORT CFObj *CFDictionaryCreate(void *alloc, CFObj **keys, CFObj **values, CFIndex n,
                                 const CallBacks *kcb, const CallBacks *vcb) {
  (void)alloc;
  CFObj *o = cf_alloc(TID_DICT);
  o->u.dict.keys = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.dict.values = calloc(n ? n : 1, sizeof(CFObj *));
  o->u.dict.count = n;
  o->u.dict.retains = kcb == &kCFTypeDictionaryKeyCallBacks && vcb == &kCFTypeDictionaryValueCallBacks;
  for (CFIndex i = 0; i < n; i++) {
    o->u.dict.keys[i] = keys[i];
    o->u.dict.values[i] = values[i];
    if (o->u.dict.retains) {
      cf_retain(keys[i]);
      cf_retain(values[i]);
    }
  }
  return o;
}

EXPORT CFIndex CFDictionaryGetCount(CFObj *d) { return cf_is(d, TID_DICT) ? d->u.dict.count : 0; }

EXPORT CFObj *CFDictionaryGetValue(CFObj *d, CFObj *key) {
  if (!cf_is(d, TID_DICT)) return NULL;
  for (CFIndex i = 0; i < d->u.dict.count; i++)
    if (cf_equal(d->u.dict.keys[i], key)) return d->u.dict.values[i];
  return NULL;
}

/* CFNumberType values. */
enum {
  kCFNumberSInt8Type = 1,
  kCFNumberSInt16Type = 2,
  kCFNumberSInt32Type = 3,
  kCFNumberSInt64Type = 4,
  kCFNumberFloat32Type = 5,
  kCFNumberFloat64Type = 6,
  kCFNumberCharType = 7,
  kCFNumberShortType = 8,
  kCFNumberIntType = 9,
  kCFNumberLongType = 10,
  kCFNumberLongLongType = 11,
  kCFNumberFloatType = 12,
  kCFNumberDoubleType = 13,
  kCFNumberCFIndexType = 14,
  kCFNumberNSIntegerType = 15,
  kCFNumberCGFloatType = 16,
};

static bool num_is_float_type(CFIndex t) {
  return t == kCFNumberFloat32Type || t == kCFNumberFloat64Type || t == kCFNumberFloatType ||
         t == kCFNumberDoubleType || t == kCFNumberCGFloatType;
}

EXPORT CFObj *CFNumberCreate(void *alloc, CFIndex type, const void *p) {
  (void)alloc;
  if (p == NULL) return NULL;
  switch (type) {
    case kCFNumberSInt32Type:
    case kCFNumberIntType:
      return cf_number_int(*(const int32_t *)p);
    case kCFNumberSInt64Type:
    case kCFNumberLongType:
    case kCFNumberLongLongType:
    case kCFNumberCFIndexType:
    case kCFNumberNSIntegerType:
      return cf_number_int(*(const int64_t *)p);
    case kCFNumberFloat32Type:
    case kCFNumberFloatType:
      return cf_number_double(*(const float *)p);
    case kCFNumberFloat64Type:
    case kCFNumberDoubleType:
    case kCFNumberCGFloatType:
      return cf_number_double(*(const double *)p);
    default:
      return NULL;
  }
}

EXPORT CFIndex CFNumberGetType(CFObj *n) { return cf_is(n, TID_NUMBER) ? n->u.num.type : 0; }

EXPORT Boolean CFNumberIsFloatType(CFObj *n) {
  return cf_is(n, TID_NUMBER) && num_is_float_type(n->u.num.type);
}

/* Returns false when the conversion is lossy, as CFNumberGetValue does. */
EXPORT Boolean CFNumberGetValue(CFObj *n, CFIndex type, void *p) {
  if (!cf_is(n, TID_NUMBER) || p == NULL) return false;
  double d = n->u.num.d;
  switch (type) {
    case kCFNumberSInt32Type:
    case kCFNumberIntType:
      *(int32_t *)p = (int32_t)d;
      return (double)(int32_t)d == d;
    case kCFNumberSInt64Type:
    case kCFNumberLongType:
    case kCFNumberLongLongType:
    case kCFNumberCFIndexType:
    case kCFNumberNSIntegerType:
      *(int64_t *)p = n->u.num.is_float ? (int64_t)d : n->u.num.i;
      return !n->u.num.is_float || (double)(int64_t)d == d;
    case kCFNumberFloat32Type:
    case kCFNumberFloatType:
      *(float *)p = (float)d;
      return true;
    case kCFNumberFloat64Type:
    case kCFNumberDoubleType:
    case kCFNumberCGFloatType:
      *(double *)p = d;
      return true;
    default:
      return false;
  }
}

EXPORT Boolean CFBooleanGetValue(CFObj *b) { return cf_is(b, TID_BOOL) && b->u.boolean.value; }

__attribute__((constructor)) static void cf_init(void) {
  g_true = cf_make_static(TID_BOOL);
  g_true->u.boolean.value = true;
  g_false = cf_make_static(TID_BOOL);
  kCFBooleanTrue = g_true;
  kCFBooleanFalse = g_false;
  g_null = cf_make_static(TID_NULL);
  kCFNull = g_null;
  CFObj *mode = cf_string("kCFRunLoopDefaultMode");
  mode->base = 1;
  g_created--;
  kCFRunLoopDefaultMode = mode;
}
