// See include/cj_sha256.h. No build-time dependency on OpenSSL: its EVP digest API (files) and
// SHA256_Init/Update/Final (buffers) are looked up with dlopen/dlsym, so a machine without
// libcrypto still builds and runs (with the Swift code).
#include "cj_sha256.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

typedef void *(*ctx_new_fn)(void);
typedef void (*ctx_free_fn)(void *);
typedef const void *(*md_fn)(void);
typedef int (*init_fn)(void *, const void *, void *);
typedef int (*update_fn)(void *, const void *, size_t);
typedef int (*final_fn)(void *, unsigned char *, unsigned int *);
typedef int (*low_init_fn)(void *);
typedef int (*low_update_fn)(void *, const void *, size_t);
typedef int (*low_final_fn)(unsigned char *, void *);

static struct {
  ctx_new_fn ctx_new;
  ctx_free_fn ctx_free;
  md_fn sha256;
  init_fn init;
  update_fn update;
  final_fn final;
  /* SHA256_Init/Update/Final: a buffer's digest with the context on the stack, no EVP fetch
     and no allocation (an output key is two digests of a few hundred bytes: the EVP set-up
     cost more than the hashing). The only way buffers are hashed here: where a libcrypto lacks
     them (deprecated since OpenSSL 3.0, still in 3.x and 4.0) cj_sha256_buffer fails and the
     caller uses its portable code, as without libcrypto. Files go through EVP. */
  low_init_fn low_init;
  low_update_fn low_update;
  low_final_fn low_final;
  int ok;
} crypto;
static pthread_once_t crypto_once = PTHREAD_ONCE_INIT;
static volatile int portable_only;

void cj_sha256_set_portable(int portable) { portable_only = portable != 0; }

static void crypto_load(void) {
  void *h = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!h) h = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
  if (!h) return;
  crypto.ctx_new = (ctx_new_fn)dlsym(h, "EVP_MD_CTX_new");
  crypto.ctx_free = (ctx_free_fn)dlsym(h, "EVP_MD_CTX_free");
  crypto.sha256 = (md_fn)dlsym(h, "EVP_sha256");
  crypto.init = (init_fn)dlsym(h, "EVP_DigestInit_ex");
  crypto.update = (update_fn)dlsym(h, "EVP_DigestUpdate");
  crypto.final = (final_fn)dlsym(h, "EVP_DigestFinal_ex");
  crypto.low_init = (low_init_fn)dlsym(h, "SHA256_Init");
  crypto.low_update = (low_update_fn)dlsym(h, "SHA256_Update");
  crypto.low_final = (low_final_fn)dlsym(h, "SHA256_Final");
  crypto.ok = crypto.ctx_new && crypto.ctx_free && crypto.sha256 && crypto.init && crypto.update &&
              crypto.final;
}

int cj_sha256_available(void) {
  if (portable_only) return 0;
  pthread_once(&crypto_once, crypto_load);
  return crypto.ok;
}

int cj_sha256_buffer(const void *data, size_t len, unsigned char *out) {
  if (!cj_sha256_available() || !crypto.low_init || !crypto.low_update || !crypto.low_final)
    return -1;
  /* SHA256_CTX is 112 bytes; room to spare, aligned. */
  _Alignas(16) unsigned char ctx[256];
  return crypto.low_init(ctx) == 1 && crypto.low_update(ctx, data, len) == 1 &&
                 crypto.low_final(out, ctx) == 1
             ? 0
             : -1;
}

int cj_sha256_file(const char *path, unsigned char *out) {
  if (!cj_sha256_available()) return -2;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  enum { CHUNK = 1 << 20 };
  unsigned char *buf = malloc(CHUNK);
  void *ctx = crypto.ctx_new();
  int rc = -2;
  if (!buf || !ctx || crypto.init(ctx, crypto.sha256(), NULL) != 1) goto done;
  for (;;) {
    ssize_t got = read(fd, buf, CHUNK);
    if (got < 0) {
      if (errno == EINTR) continue;
      rc = -1;
      goto done;
    }
    if (got == 0) break;
    if (crypto.update(ctx, buf, (size_t)got) != 1) goto done;
  }
  unsigned int n = 0;
  rc = crypto.final(ctx, out, &n) == 1 && n == 32 ? 0 : -2;
done:;
  int saved = errno;
  if (ctx) crypto.ctx_free(ctx);
  free(buf);
  close(fd);
  errno = saved;
  return rc;
}
