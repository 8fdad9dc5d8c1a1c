/* The paths a device answers to besides its node, as udev makes them for a real camera:
 *
 *   /dev/v4l/by-id/NAME    (byid=NAME)     a symlink to the device's node
 *   /dev/v4l/by-path/NAME  (bypath=NAME)   the same
 *
 * A link exists while the device is present and points to the node it has now (after
 * replug=DELAY@PATH, the new one). The directories /dev/v4l, /dev/v4l/by-id and
 * /dev/v4l/by-path stat as directories when a device has a name in them and the real
 * one does not exist, and opendir()/readdir() list the links (after the real entries,
 * when the real directory exists). Nothing else lists them: scandir(), glob() and
 * nftw() open directories inside libc, where no interposition reaches.
 *
 * An emulated directory stream is a vcam_dir that the application holds as a DIR *.
 * Every call that takes a DIR * asks vcam_dir_is_ours() first: a single atomic load while
 * none is open, so other directory streams pay almost nothing. */
#define _GNU_SOURCE
#include "vcam.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { DIR_V4L, DIR_BYID, DIR_BYPATH, NDIRS };
static const char *const dir_paths[NDIRS] = {"/dev/v4l", "/dev/v4l/by-id", "/dev/v4l/by-path"};
static int dir_emulated[NDIRS]; /* a device has a name in it; set once, before any lookup */
static int dir_real[NDIRS];     /* the real directory exists: stat and friends are libc's */

#define BYID_PREFIX "/dev/v4l/by-id/"
#define BYPATH_PREFIX "/dev/v4l/by-path/"

/* Called once from the devices' set-up (pthread_once), so later readers need no lock. */
void vcam_names_init(const vcam_device *devices, int n) {
    for (int i = 0; i < n; i++) {
        const vcam_config *c = &devices[i].cfg;
        if (c->byid[0]) dir_emulated[DIR_BYID] = dir_emulated[DIR_V4L] = 1;
        if (c->bypath[0]) dir_emulated[DIR_BYPATH] = dir_emulated[DIR_V4L] = 1;
    }
    for (int d = 0; d < NDIRS; d++) {
        struct stat st;
        dir_real[d] = dir_emulated[d] && vcam_real_lstat(dir_paths[d], &st) == 0;
    }
}

int vcam_name_lookup(const char *path, vcam_name *out, int listing) {
    if (!path || path[0] != '/') return 0;
    int n = vcam_device_count();
    for (int i = 0; i < n; i++) {
        vcam_device *dev = vcam_device_at(i);
        if (strcmp(dev->cfg.path, path) == 0) {
            *out = (vcam_name){.kind = VCAM_NODE, .dev = dev};
            return 1;
        }
        if (dev->cfg.replug_path[0] && strcmp(dev->cfg.replug_path, path) == 0) {
            *out = (vcam_name){.kind = VCAM_REPLUG_NODE, .dev = dev};
            return 1;
        }
    }
    if (n == 0 || strncmp(path, "/dev/v4l", 8) != 0) return 0;
    for (int d = 0; d < NDIRS; d++) {
        /* a real directory is libc's, except for listing, where our links join its entries */
        if (dir_emulated[d] && (listing || !dir_real[d]) && strcmp(path, dir_paths[d]) == 0) {
            *out = (vcam_name){.kind = VCAM_DIR, .dir = d};
            return 1;
        }
    }
    int byid = strncmp(path, BYID_PREFIX, strlen(BYID_PREFIX)) == 0;
    int bypath = !byid && strncmp(path, BYPATH_PREFIX, strlen(BYPATH_PREFIX)) == 0;
    if (!byid && !bypath) return 0;
    const char *name = path + strlen(byid ? BYID_PREFIX : BYPATH_PREFIX);
    for (int i = 0; i < n; i++) {
        vcam_device *dev = vcam_device_at(i);
        const char *own = byid ? dev->cfg.byid : dev->cfg.bypath;
        if (own[0] && strcmp(own, name) == 0) {
            *out = (vcam_name){.kind = byid ? VCAM_BYID : VCAM_BYPATH, .dev = dev};
            return 1;
        }
    }
    return 0;
}

vcam_name_type vcam_name_state(const vcam_name *n, int *node) {
    if (n->kind == VCAM_DIR) return VCAM_IS_DIR;
    int where = vcam_device_where(n->dev);
    *node = where;
    switch (n->kind) {
    case VCAM_NODE: return where == VCAM_NODE ? VCAM_IS_DEVICE : VCAM_ABSENT;
    case VCAM_REPLUG_NODE: return where == VCAM_REPLUG_NODE ? VCAM_IS_DEVICE : VCAM_ABSENT;
    default: return where >= 0 ? VCAM_IS_LINK : VCAM_ABSENT; /* udev removes the links with the node */
    }
}

void vcam_link_text(const vcam_device *dev, int node, char *out, size_t cap) {
    const char *target = vcam_node_path(dev, node);
    /* udev's links are relative: by-id/NAME -> ../../video0 */
    if (strncmp(target, "/dev/", 5) == 0) snprintf(out, cap, "../../%s", target + 5);
    else snprintf(out, cap, "%s", target);
}

const char *vcam_dir_path(int dir) { return dir >= 0 && dir < NDIRS ? dir_paths[dir] : ""; }

/* ---- directory streams ---- */

#define DIR_MAX_ENTRIES (2 + 2 * VCAM_MAX_DEVICES)

typedef struct vcam_dir {
    struct vcam_dir *next_open;
    void *real; /* the real directory's stream when it exists: its entries come first */
    int real_done;
    int count, next; /* our entries, and the next one to return */
    long returned;   /* entries returned since the start (telldir) */
    struct {
        char name[VCAM_NAME_MAX];
        unsigned char type;
        ino_t ino;
    } entries[DIR_MAX_ENTRIES];
    struct dirent64 ent;
} vcam_dir;

_Static_assert(sizeof(struct dirent) == sizeof(struct dirent64), "LP64 dirent layout");

static pthread_mutex_t dirs_lock = PTHREAD_MUTEX_INITIALIZER;
static vcam_dir *open_dirs;
static atomic_int dirs_open;

void vcam_names_after_fork(void) {
    /* another thread may have held the lock; the child's streams stay valid */
    pthread_mutex_init(&dirs_lock, NULL);
}

int vcam_dir_is_ours(const void *dir) {
    if (!dir || atomic_load_explicit(&dirs_open, memory_order_acquire) == 0) return 0;
    int found = 0;
    pthread_mutex_lock(&dirs_lock);
    for (vcam_dir *d = open_dirs; d && !found; d = d->next_open) found = (const void *)d == dir;
    pthread_mutex_unlock(&dirs_lock);
    return found;
}

static void add_entry(vcam_dir *d, const char *name, unsigned char type, ino_t ino) {
    if (d->count >= DIR_MAX_ENTRIES) return;
    snprintf(d->entries[d->count].name, sizeof d->entries[d->count].name, "%s", name);
    d->entries[d->count].type = type;
    d->entries[d->count].ino = ino;
    d->count++;
}

void *vcam_dir_open(const vcam_name *n) {
    vcam_dir *d = calloc(1, sizeof *d);
    if (!d) {
        errno = ENOMEM;
        return NULL;
    }
    if (dir_real[n->dir]) {
        d->real = vcam_real_opendir(dir_paths[n->dir]);
        if (!d->real) { /* gone since the start: list ours alone */
            d->real_done = 1;
        }
    } else {
        d->real_done = 1;
    }
    /* a snapshot, as a real listing of a changing directory may be */
    add_entry(d, ".", DT_DIR, 300000 + (ino_t)n->dir);
    add_entry(d, "..", DT_DIR, n->dir == DIR_V4L ? 2 : 300000);
    if (n->dir == DIR_V4L) {
        if (dir_emulated[DIR_BYID]) add_entry(d, "by-id", DT_DIR, 300000 + DIR_BYID);
        if (dir_emulated[DIR_BYPATH]) add_entry(d, "by-path", DT_DIR, 300000 + DIR_BYPATH);
    } else {
        for (int i = 0; i < vcam_device_count(); i++) {
            vcam_device *dev = vcam_device_at(i);
            const char *name = n->dir == DIR_BYID ? dev->cfg.byid : dev->cfg.bypath;
            if (name[0] && vcam_device_where(dev) >= 0)
                add_entry(d, name, DT_LNK, 200000 + (ino_t)(2 * dev->index + (n->dir == DIR_BYPATH)));
        }
    }
    pthread_mutex_lock(&dirs_lock);
    d->next_open = open_dirs;
    open_dirs = d;
    atomic_fetch_add_explicit(&dirs_open, 1, memory_order_release);
    pthread_mutex_unlock(&dirs_lock);
    return d;
}

static int ours_named(const vcam_dir *d, const char *name) {
    for (int i = 0; i < d->count; i++)
        if (strcmp(d->entries[i].name, name) == 0) return 1;
    return 0;
}

struct dirent64 *vcam_dir_read(void *dir) {
    vcam_dir *d = dir;
    while (!d->real_done) {
        int saved = errno;
        struct dirent64 *e = vcam_real_readdir64(d->real);
        if (!e) {
            d->real_done = 1;
            errno = saved; /* the end is not an error */
            break;
        }
        if (ours_named(d, e->d_name)) continue; /* ours stand in for it */
        d->returned++;
        return e;
    }
    if (d->next >= d->count) return NULL; /* the end: errno unchanged */
    memset(&d->ent, 0, sizeof d->ent);
    d->ent.d_ino = d->entries[d->next].ino;
    d->ent.d_type = d->entries[d->next].type;
    snprintf(d->ent.d_name, sizeof d->ent.d_name, "%s", d->entries[d->next].name);
    size_t len = offsetof(struct dirent64, d_name) + strlen(d->ent.d_name) + 1;
    d->ent.d_reclen = (unsigned short)((len + 7) & ~(size_t)7);
    d->next++;
    d->returned++;
    d->ent.d_off = d->returned;
    return &d->ent;
}

void vcam_dir_rewind(void *dir) {
    vcam_dir *d = dir;
    if (d->real) {
        vcam_real_rewinddir(d->real);
        d->real_done = 0;
    }
    d->next = 0;
    d->returned = 0;
}

long vcam_dir_tell(void *dir) { return ((vcam_dir *)dir)->returned; }

/* Positions are entry counts (what vcam_dir_tell returned): read that many again. */
void vcam_dir_seek(void *dir, long pos) {
    vcam_dir_rewind(dir);
    int saved = errno;
    while (((vcam_dir *)dir)->returned < pos && vcam_dir_read(dir)) {
    }
    errno = saved;
}

int vcam_dir_fd(void *dir) {
    vcam_dir *d = dir;
    if (d->real) return vcam_real_dirfd(d->real);
    errno = ENOTSUP; /* nothing to give: the directory does not exist */
    return -1;
}

int vcam_dir_close(void *dir) {
    vcam_dir *d = dir;
    pthread_mutex_lock(&dirs_lock);
    for (vcam_dir **p = &open_dirs; *p; p = &(*p)->next_open) {
        if (*p == d) {
            *p = d->next_open;
            atomic_fetch_sub_explicit(&dirs_open, 1, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&dirs_lock);
    int rc = d->real ? vcam_real_closedir(d->real) : 0;
    free(d);
    return rc;
}
