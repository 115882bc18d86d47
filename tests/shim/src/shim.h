/*
 * A Linux stand-in for the parts of CoreFoundation, ApplicationServices (AX)
 * and CoreGraphics that the macOS backend calls, over an in-memory app tree
 * loaded from JSON. It follows Apple's documented contracts: CF objects carry
 * a type id and a retain count, Create/Copy results are owned by the caller,
 * Get results are not, AX calls return AXError codes.
 *
 * Every CF object is accounted: releasing a freed object (or releasing more
 * than retained) is recorded as a double free instead of crashing, objects are
 * never really freed (they go to a graveyard), so a test can assert that the
 * backend released everything it received exactly once.
 */
#ifndef AXSHIM_H
#define AXSHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

typedef long CFIndex;
typedef unsigned long CFTypeID;
typedef unsigned long CFHashCode;
typedef unsigned char Boolean;
typedef uint32_t CFStringEncoding;
typedef int32_t AXError;

#define kCFStringEncodingUTF8 0x08000100u

/* AXError codes (AXError.h). */
enum {
  kAXErrorSuccess = 0,
  kAXErrorFailure = -25200,
  kAXErrorIllegalArgument = -25201,
  kAXErrorInvalidUIElement = -25202,
  kAXErrorInvalidUIElementObserver = -25203,
  kAXErrorCannotComplete = -25204,
  kAXErrorAttributeUnsupported = -25205,
  kAXErrorActionUnsupported = -25206,
  kAXErrorNotificationUnsupported = -25207,
  kAXErrorNotImplemented = -25208,
  kAXErrorNotificationAlreadyRegistered = -25209,
  kAXErrorNotificationNotRegistered = -25210,
  kAXErrorAPIDisabled = -25211,
  kAXErrorNoValue = -25212,
};

/* AXValueType (AXValue.h). */
enum {
  kAXValueCGPointType = 1,
  kAXValueCGSizeType = 2,
  kAXValueCGRectType = 3,
  kAXValueCFRangeType = 4,
  kAXValueAXErrorType = 5,
};

/* CF type ids of this shim (callers must ask the *GetTypeID functions). */
enum {
  TID_NULL = 1,
  TID_STRING = 7,
  TID_DICT = 18,
  TID_ARRAY = 19,
  TID_BOOL = 21,
  TID_NUMBER = 22,
  TID_RUNLOOP = 43,
  TID_SOURCE = 44,
  TID_CGEVENT = 300,
  TID_AXELEM = 400,
  TID_AXVALUE = 401,
  TID_AXOBSERVER = 402,
  TID_DATA = 20,
  TID_CGIMAGE = 500,
  TID_CGDATAPROVIDER = 501,
  TID_PASTEBOARD = 502,
};

struct Node;
struct CFObj;

typedef struct CFObj CFObj;
typedef void (*AXObserverCallback)(CFObj *observer, CFObj *element, CFObj *notification,
                                   void *refcon);

/* One registration of an observer. */
typedef struct {
  CFObj *element; /* retained */
  char *name;
  void *refcon;
} ObsReg;

/* Event state carried by a CGEvent. */
typedef struct {
  uint32_t type;
  double x, y;
  uint32_t button;
  uint16_t keycode;
  bool keydown;
  uint64_t flags;
  uint16_t text[64];
  int text_len;
  int64_t click_state;
  int32_t wheel[3];
  uint32_t wheel_count;
  uint32_t scroll_units;
} EventData;

struct CFObj {
  uint32_t magic; /* MAGIC_LIVE or MAGIC_DEAD */
  CFTypeID type;
  long retain;
  long base;      /* references the shim itself keeps on static objects */
  CFObj *next;    /* registry of every object ever created */
  union {
    struct {
      char *utf8;
      CFIndex utf16_len;
    } str;
    struct {
      CFObj **items;
      CFIndex count;
      bool retains;
    } arr;
    struct {
      CFObj **keys;
      CFObj **values;
      CFIndex count;
      bool retains;
    } dict;
    struct {
      bool is_float;
      double d;
      int64_t i;
      CFIndex type;
    } num;
    struct {
      bool value;
    } boolean;
    struct {
      int kind; /* 0 element, 1 system-wide, 2 application by pid */
      struct Node *node;
      int pid;
      double timeout; /* seconds, 0 = global */
    } ax;
    struct {
      uint32_t type;
      unsigned char bytes[32];
    } axvalue;
    struct {
      int pid;
      AXObserverCallback cb;
      ObsReg *regs;
      int nregs;
      CFObj *source; /* owned */
    } obs;
    struct {
      CFObj *observer; /* not retained: the observer owns the source */
    } source;
    struct {
      CFObj **sources; /* retained */
      int count;
    } runloop;
    EventData ev;
    struct {
      unsigned char *bytes;
      CFIndex len;
    } data; /* CFData and CGDataProvider */
    struct {
      size_t w, h, bpr;
      uint32_t info;
      CFObj *provider; /* owned: released with the image */
    } img;
  } u;
};

#define MAGIC_LIVE 0xC0FFEE01u
#define MAGIC_DEAD 0xDEADBEEFu

/* cf.c */
CFObj *cf_alloc(CFTypeID type);
CFObj *cf_make_static(CFTypeID type);
bool cf_check(const CFObj *o);
bool cf_is(const CFObj *o, CFTypeID type);
CFObj *cf_string(const char *utf8);
CFObj *cf_number_int(int64_t v);
CFObj *cf_number_double(double v);
CFObj *cf_bool(bool v);
CFObj *cf_array_take(CFObj **items, CFIndex n); /* array retains items, then drops the creation refs */
CFObj *cf_dict_take(CFObj **keys, CFObj **values, CFIndex n);
const char *cf_str_utf8(const CFObj *s);
void cf_release(CFObj *o);
CFObj *cf_retain(CFObj *o);
void shim_note_bad_use(void);
void shim_note_secure_read(void);
void cf_reset_accounting(void);
bool cf_equal(const CFObj *a, const CFObj *b);
CFObj *CFDictionaryGetValue(CFObj *d, CFObj *key);

extern CFObj *g_true;
extern CFObj *g_false;
extern CFObj *g_null;

/* json.c */
typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;
typedef struct JVal {
  JType t;
  bool b;
  double num;
  char *str;
  struct JVal **items;
  char **keys;
  int n;
} JVal;
JVal *json_parse_file(const char *path, char *err, size_t errlen);
JVal *json_get(const JVal *obj, const char *key);
JVal *json_parse_text(const char *text, char *err, size_t errlen);

/* Tree (ax.c). */
typedef enum { V_NONE, V_STR, V_INT, V_REAL, V_BOOL, V_NODE } VKind;
typedef struct {
  VKind kind;
  char *str;
  double num;
  bool b;
  struct Node *node;
  char *node_key; /* resolved after load */
} Val;

typedef struct {
  char *name;
  Val v;
  bool settable;
} Attr;

struct App;
typedef struct Node {
  struct App *app;
  struct Node *parent;
  struct Node **kids;
  int nkids, capkids;
  char *key;
  Attr *attrs;
  int nattrs, capattrs;
  char **actions;
  int nactions;
  bool has_frame;
  double frame[4];
  bool dead;
  JVal *on; /* scripted effects by trigger name */
  int winnum, layer;
  bool onscreen;
} Node;

typedef struct App {
  int pid;
  char *name;
  char *bundle;
  Node *root;
  bool removed;
  int hang_ms;        /* 0: answers at once; >0: delay; -25204: always cannot complete */
  int a11y_mode;      /* 0 plain, 1 needs AXManualAccessibility, 2 only AXEnhancedUserInterface */
  bool manual_on, enhanced_on;
  double enabled_at;  /* wall clock seconds when web content was switched on */
  int build_delay_ms; /* how long the web tree takes to appear */
} App;

/* ax.c helpers used by cg.c */
extern App **g_apps;
extern int g_napps;
App *app_frontmost(void);
void app_set_frontmost(App *a);
Node *node_hit(App *a, double x, double y);
void node_click(Node *n);
void node_key(App *a, const EventData *ev);
void node_scroll(Node *n, int32_t dy, int32_t dx);
void node_drag(Node *from, Node *to_hit, double x, double y);
bool tree_loaded(void);
void tree_ensure(void);
void shim_log(const char *fmt, ...);
Val *node_attr(Node *n, const char *name);
bool node_children_visible(const Node *n);

#endif
