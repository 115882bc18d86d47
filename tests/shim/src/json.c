/* A small JSON reader for the shim's app trees (objects, arrays, strings, numbers, literals). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

typedef struct {
  const char *p;
  char *err;
  size_t errlen;
} Parser;

static JVal *parse_value(Parser *ps);

static void skip_ws(Parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t') ps->p++;
}

static JVal *fail(Parser *ps, const char *msg) {
  if (ps->err && !ps->err[0]) snprintf(ps->err, ps->errlen, "%s near '%.20s'", msg, ps->p);
  return NULL;
}

static void put_utf8(char **out, unsigned cp) {
  char *o = *out;
  if (cp < 0x80) {
    *o++ = (char)cp;
  } else if (cp < 0x800) {
    *o++ = (char)(0xC0 | (cp >> 6));
    *o++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *o++ = (char)(0xE0 | (cp >> 12));
    *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *o++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *o++ = (char)(0xF0 | (cp >> 18));
    *o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
    *o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *o++ = (char)(0x80 | (cp & 0x3F));
  }
  *out = o;
}

static char *parse_string_raw(Parser *ps) {
  if (*ps->p != '"') return NULL;
  ps->p++;
  /* Escapes never expand: the raw span up to the closing quote bounds the decoded size. */
  size_t span = 0;
  while (ps->p[span] && ps->p[span] != '"') span += (ps->p[span] == '\\' && ps->p[span + 1]) ? 2 : 1;
  char *buf = malloc(span + 1);
  char *o = buf;
  while (*ps->p && *ps->p != '"') {
    if (*ps->p == '\\') {
      ps->p++;
      char c = *ps->p++;
      switch (c) {
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'u': {
          unsigned cp = (unsigned)strtoul((char[]){ps->p[0], ps->p[1], ps->p[2], ps->p[3], 0}, NULL, 16);
          ps->p += 4;
          if (cp >= 0xD800 && cp < 0xDC00 && ps->p[0] == '\\' && ps->p[1] == 'u') {
            unsigned lo = (unsigned)strtoul((char[]){ps->p[2], ps->p[3], ps->p[4], ps->p[5], 0}, NULL, 16);
            ps->p += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          put_utf8(&o, cp);
          break;
        }
        default: *o++ = c; break;
      }
    } else {
      *o++ = *ps->p++;
    }
  }
  if (*ps->p != '"') {
    free(buf);
    return NULL;
  }
  ps->p++;
  *o = 0;
  return buf;
}

static JVal *new_val(JType t) {
  JVal *v = calloc(1, sizeof(JVal));
  v->t = t;
  return v;
}

static JVal *parse_value(Parser *ps) {
  skip_ws(ps);
  char c = *ps->p;
  if (c == '{') {
    ps->p++;
    JVal *v = new_val(J_OBJ);
    int cap = 8;
    v->items = calloc(cap, sizeof(JVal *));
    v->keys = calloc(cap, sizeof(char *));
    skip_ws(ps);
    if (*ps->p == '}') {
      ps->p++;
      return v;
    }
    for (;;) {
      skip_ws(ps);
      char *key = parse_string_raw(ps);
      if (!key) return fail(ps, "expected a key");
      skip_ws(ps);
      if (*ps->p != ':') return fail(ps, "expected ':'");
      ps->p++;
      JVal *item = parse_value(ps);
      if (!item) return NULL;
      if (v->n == cap) {
        cap *= 2;
        v->items = realloc(v->items, cap * sizeof(JVal *));
        v->keys = realloc(v->keys, cap * sizeof(char *));
      }
      v->keys[v->n] = key;
      v->items[v->n++] = item;
      skip_ws(ps);
      if (*ps->p == ',') {
        ps->p++;
        continue;
      }
      if (*ps->p == '}') {
        ps->p++;
        return v;
      }
      return fail(ps, "expected ',' or '}'");
    }
  }
  if (c == '[') {
    ps->p++;
    JVal *v = new_val(J_ARR);
    int cap = 8;
    v->items = calloc(cap, sizeof(JVal *));
    skip_ws(ps);
    if (*ps->p == ']') {
      ps->p++;
      return v;
    }
    for (;;) {
      JVal *item = parse_value(ps);
      if (!item) return NULL;
      if (v->n == cap) {
        cap *= 2;
        v->items = realloc(v->items, cap * sizeof(JVal *));
      }
      v->items[v->n++] = item;
      skip_ws(ps);
      if (*ps->p == ',') {
        ps->p++;
        continue;
      }
      if (*ps->p == ']') {
        ps->p++;
        return v;
      }
      return fail(ps, "expected ',' or ']'");
    }
  }
  if (c == '"') {
    JVal *v = new_val(J_STR);
    v->str = parse_string_raw(ps);
    if (!v->str) return fail(ps, "unterminated string");
    return v;
  }
  if (strncmp(ps->p, "true", 4) == 0 || strncmp(ps->p, "false", 5) == 0) {
    JVal *v = new_val(J_BOOL);
    v->b = c == 't';
    ps->p += v->b ? 4 : 5;
    return v;
  }
  if (strncmp(ps->p, "null", 4) == 0) {
    ps->p += 4;
    return new_val(J_NULL);
  }
  if (c == '-' || (c >= '0' && c <= '9')) {
    char *end;
    JVal *v = new_val(J_NUM);
    v->num = strtod(ps->p, &end);
    ps->p = end;
    return v;
  }
  return fail(ps, "unexpected character");
}

JVal *json_parse_text(const char *text, char *err, size_t errlen) {
  Parser ps = {text, err, errlen};
  if (err && errlen) err[0] = 0;
  JVal *v = parse_value(&ps);
  if (!v) return NULL;
  skip_ws(&ps);
  if (*ps.p) return fail(&ps, "trailing characters");
  return v;
}

JVal *json_parse_file(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open %s", path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(n + 1);
  size_t got = fread(text, 1, n, f);
  text[got] = 0;
  fclose(f);
  JVal *v = json_parse_text(text, err, errlen);
  free(text);
  return v;
}

JVal *json_get(const JVal *obj, const char *key) {
  if (!obj || obj->t != J_OBJ) return NULL;
  for (int i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}
