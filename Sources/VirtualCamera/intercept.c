/* The libc functions the library interposes (LD_PRELOAD).
 *
 * Each wrapper decides in a few instructions whether the call concerns an
 * emulated device (a configured path, one of its /dev/v4l links or their
 * directories (names.c), an fd in fdtable.c, or a directory stream of ours) and
 * otherwise calls the next definition (libc) found with dlsym(RTLD_NEXT),
 * untouched: a process that never opens a configured path behaves exactly as
 * without the library.
 *
 * munmap is interposed only to learn that an application's mapping of a buffer goes
 * (the producer writes frames into it, see vcam_device.app_map); the buffers are real
 * memfd mappings, so libc's munmap then does the unmapping. Not interposed on purpose:
 * read/write (the fd is a real eventfd). */
#undef _FORTIFY_SOURCE /* fortify would turn open() & co. into inline wrappers */
#define _GNU_SOURCE
#include "vcam.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* Not declared by glibc 2.36 headers (or only under _FORTIFY_SOURCE). */
int __open_2(const char *path, int flags);
int __open64_2(const char *path, int flags);
int __openat_2(int dirfd, const char *path, int flags);
int __openat64_2(int dirfd, const char *path, int flags);
int __xstat(int ver, const char *path, struct stat *st);
int __xstat64(int ver, const char *path, struct stat64 *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __lxstat64(int ver, const char *path, struct stat64 *st);
int __fxstat(int ver, int fd, struct stat *st);
int __fxstat64(int ver, int fd, struct stat64 *st);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags);
int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen);
int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *ss, size_t fdslen);
void __chk_fail(void) __attribute__((noreturn));
ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen);
ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen);
char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen);

/* Looks the next definition up once; racing threads store the same pointer. */
static void *next_fn(const char *name, void *_Atomic *slot) {
    void *p = atomic_load_explicit(slot, memory_order_acquire);
    if (!p) {
        p = dlsym(RTLD_NEXT, name);
        atomic_store_explicit(slot, p, memory_order_release);
    }
    return p;
}
#define REAL(name)                                                                                     \
    ({                                                                                                 \
        static void *_Atomic slot_;                                                                    \
        (__typeof__(&name))next_fn(#name, &slot_);                                                     \
    })
#define CALL_REAL(name, fail, ...)                                                                     \
    do {                                                                                               \
        __typeof__(&name) fn_ = REAL(name);                                                            \
        if (!fn_) {                                                                                    \
            errno = ENOSYS;                                                                            \
            return fail;                                                                               \
        }                                                                                              \
        return fn_(__VA_ARGS__);                                                                       \
    } while (0)

int vcam_real_close(int fd) { CALL_REAL(close, -1, fd); }
int vcam_real_poll(struct pollfd *fds, unsigned long n, int timeout) { CALL_REAL(poll, -1, fds, n, timeout); }
void *vcam_real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    CALL_REAL(mmap, MAP_FAILED, addr, len, prot, flags, fd, off);
}
int vcam_real_lstat(const char *path, struct stat *st) { CALL_REAL(lstat, -1, path, st); }
void *vcam_real_opendir(const char *path) { CALL_REAL(opendir, NULL, path); }
struct dirent64 *vcam_real_readdir64(void *dir) { CALL_REAL(readdir64, NULL, dir); }
void vcam_real_rewinddir(void *dir) {
    __typeof__(&rewinddir) fn = REAL(rewinddir);
    if (fn) fn(dir);
}
int vcam_real_closedir(void *dir) { CALL_REAL(closedir, -1, dir); }
int vcam_real_dirfd(void *dir) { CALL_REAL(dirfd, -1, dir); }

/* ---- open ---- */

static int needs_mode(int flags) { return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE; }

#define NOT_OURS (-2)

/* open() of a configured path or a link to one; NOT_OURS for anything else. */
static int open_name(const char *path, int flags) {
    vcam_name n;
    if (!vcam_name_lookup(path, &n, 0) || n.kind == VCAM_DIR) return NOT_OURS; /* no fd for a directory */
    int node = -1;
    switch (vcam_name_state(&n, &node)) {
    case VCAM_IS_LINK:
        if (flags & O_NOFOLLOW) return errno = ELOOP, -1;
        /* fall through */
    case VCAM_IS_DEVICE: return vcam_open(n.dev, node, flags);
    default: return errno = ENOENT, -1;
    }
}

#define OPEN_BODY(realname, ...)                                                                       \
    int rc_ = open_name(path, flags);                                                                  \
    if (rc_ != NOT_OURS) return rc_;                                                                   \
    CALL_REAL(realname, -1, __VA_ARGS__)

#define MODE_ARG                                                                                       \
    mode_t mode = 0;                                                                                   \
    if (needs_mode(flags)) {                                                                           \
        va_list ap;                                                                                    \
        va_start(ap, flags);                                                                           \
        mode = va_arg(ap, mode_t);                                                                     \
        va_end(ap);                                                                                    \
    }

int open(const char *path, int flags, ...) {
    MODE_ARG
    OPEN_BODY(open, path, flags, mode);
}
int open64(const char *path, int flags, ...) {
    MODE_ARG
    OPEN_BODY(open64, path, flags, mode);
}
int openat(int dirfd, const char *path, int flags, ...) {
    MODE_ARG
    OPEN_BODY(openat, dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) {
    MODE_ARG
    OPEN_BODY(openat64, dirfd, path, flags, mode);
}
int __open_2(const char *path, int flags) { OPEN_BODY(__open_2, path, flags); }
int __open64_2(const char *path, int flags) { OPEN_BODY(__open64_2, path, flags); }
int __openat_2(int dirfd, const char *path, int flags) { OPEN_BODY(__openat_2, dirfd, path, flags); }
int __openat64_2(int dirfd, const char *path, int flags) { OPEN_BODY(__openat64_2, dirfd, path, flags); }

/* ---- close and the dup family: duplicates share the open file ---- */

int close(int fd) {
    vcam_file *f = vcam_fd_take(fd);
    __typeof__(&close) fn = REAL(close);
    int rc = fn ? fn(fd) : (errno = ENOSYS, -1);
    if (f) {
        int saved = errno;
        vcam_file_put(f); /* the last fd of the file: streaming stops, buffers go */
        errno = saved;
    }
    return rc;
}

/* After a successful dup to newfd: newfd now names what oldfd's file is. */
static int after_dup(vcam_file *f, int newfd) {
    if (newfd < 0) return newfd;
    vcam_file *old = vcam_fd_take(newfd); /* dup2/dup3 closed whatever newfd was */
    int saved = errno;
    if (old) vcam_file_put(old);
    if (f && vcam_fd_add(newfd, f) != 0) {
        vcam_real_close(newfd);
        saved = EMFILE;
        newfd = -1;
    }
    errno = saved;
    return newfd;
}

int dup(int fd) {
    vcam_file *f = vcam_fd_get(fd);
    __typeof__(&dup) fn = REAL(dup);
    int rc = after_dup(f, fn ? fn(fd) : (errno = ENOSYS, -1));
    vcam_file_put(f);
    return rc;
}

int dup2(int oldfd, int newfd) {
    __typeof__(&dup2) fn = REAL(dup2);
    if (!fn) return errno = ENOSYS, -1;
    if (oldfd == newfd) return fn(oldfd, newfd);
    vcam_file *f = vcam_fd_get(oldfd);
    int rc = after_dup(f, fn(oldfd, newfd));
    vcam_file_put(f);
    return rc;
}

int dup3(int oldfd, int newfd, int flags) {
    __typeof__(&dup3) fn = REAL(dup3);
    if (!fn) return errno = ENOSYS, -1;
    vcam_file *f = oldfd == newfd ? NULL : vcam_fd_get(oldfd);
    int rc = after_dup(f, fn(oldfd, newfd, flags));
    vcam_file_put(f);
    return rc;
}

/* fcntl's third argument is absent, an int or a pointer depending on cmd. */
static int fcntl_common(int (*fn)(int, int, ...), int fd, int cmd, va_list ap) {
    if (!fn) return errno = ENOSYS, -1;
    switch (cmd) {
    case F_GETFD: case F_GETFL: case F_GETOWN: case F_GETSIG: case F_GETLEASE: case F_GETPIPE_SZ:
    case F_GET_SEALS:
        return fn(fd, cmd);
    case F_DUPFD: case F_DUPFD_CLOEXEC: {
        int min = va_arg(ap, int);
        vcam_file *f = vcam_fd_get(fd);
        int rc = fn(fd, cmd, min);
        if (f && rc >= 0 && vcam_fd_add(rc, f) != 0) {
            vcam_real_close(rc);
            errno = EMFILE;
            rc = -1;
        }
        vcam_file_put(f);
        return rc;
    }
    case F_SETFD: case F_SETFL: case F_SETOWN: case F_SETSIG: case F_SETLEASE: case F_NOTIFY:
    case F_SETPIPE_SZ: case F_ADD_SEALS:
        return fn(fd, cmd, va_arg(ap, int));
    default: /* locks, owner_ex, rw hints: a pointer (what glibc itself assumes for the rest) */
        return fn(fd, cmd, va_arg(ap, void *));
    }
}

int fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    int rc = fcntl_common(REAL(fcntl), fd, cmd, ap);
    va_end(ap);
    return rc;
}

int fcntl64(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    int rc = fcntl_common(REAL(fcntl64), fd, cmd, ap);
    va_end(ap);
    return rc;
}

/* ---- ioctl and mmap ---- */

int ioctl(int fd, unsigned long req, ...) {
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *); /* glibc's own ioctl reads it the same way */
    va_end(ap);
    if (_IOC_TYPE(req) == 'V') {
        vcam_file *f = vcam_fd_get(fd);
        if (f) {
            int rc = vcam_ioctl(f, fd, req, arg);
            int saved = errno;
            vcam_file_put(f);
            errno = saved;
            return rc;
        }
    }
    CALL_REAL(ioctl, -1, fd, req, arg);
}

static void *mmap_common(void *addr, size_t len, int prot, int flags, int fd, off_t off, int is64) {
    if (!(flags & MAP_ANONYMOUS)) {
        vcam_file *f = vcam_fd_get(fd);
        if (f) {
            void *p = vcam_mmap(f, addr, len, prot, flags, off);
            int saved = errno;
            vcam_file_put(f);
            errno = saved;
            return p;
        }
    }
    if (is64) CALL_REAL(mmap64, MAP_FAILED, addr, len, prot, flags, fd, off);
    CALL_REAL(mmap, MAP_FAILED, addr, len, prot, flags, fd, off);
}

int vcam_real_munmap(void *addr, size_t len) { CALL_REAL(munmap, -1, addr, len); }

int munmap(void *addr, size_t len) {
    if (vcam_has_app_mappings()) vcam_forget_mappings(addr, len);
    CALL_REAL(munmap, -1, addr, len);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    return mmap_common(addr, len, prot, flags, fd, off, 0);
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off) {
    return mmap_common(addr, len, prot, flags, fd, off, 1);
}

/* ---- stat family and access: a character device, major 81 like real V4L2 nodes ---- */

static void fill_common(struct stat *st, ino_t ino, mode_t mode) {
    memset(st, 0, sizeof *st);
    st->st_dev = makedev(0, 5);
    st->st_ino = ino;
    st->st_mode = mode;
    st->st_nlink = 1;
    st->st_blksize = 4096;
    clock_gettime(CLOCK_REALTIME, &st->st_mtim);
    st->st_atim = st->st_ctim = st->st_mtim;
}

/* A node after replug=DELAY@PATH is another node: another minor number and inode. */
static void fill_stat(const vcam_device *dev, int node, struct stat *st) {
    unsigned minor = (unsigned)dev->index + (node == VCAM_REPLUG_NODE ? VCAM_MAX_DEVICES : 0);
    fill_common(st, 100000 + (ino_t)minor, S_IFCHR | 0660);
    st->st_gid = 44; /* Debian's "video" group */
    st->st_rdev = makedev(81, minor);
}

static void fill_link_stat(const vcam_name *n, int node, struct stat *st) {
    char text[VCAM_PATH_MAX + 8];
    vcam_link_text(n->dev, node, text, sizeof text);
    fill_common(st, 200000 + (ino_t)(2 * n->dev->index + (n->kind == VCAM_BYPATH)), S_IFLNK | 0777);
    st->st_size = (off_t)strlen(text);
}

/* 1: ours, filled or failed (*rc and errno set); 0: not ours. `follow`: stat, not lstat. */
static int stat_path(const char *path, struct stat *st, int *rc, int follow) {
    vcam_name n;
    if (!vcam_name_lookup(path, &n, 0)) return 0;
    int node = -1;
    *rc = 0;
    switch (vcam_name_state(&n, &node)) {
    case VCAM_ABSENT: errno = ENOENT, *rc = -1; break;
    case VCAM_IS_DEVICE: fill_stat(n.dev, node, st); break;
    case VCAM_IS_LINK:
        if (follow) fill_stat(n.dev, node, st);
        else fill_link_stat(&n, node, st);
        break;
    case VCAM_IS_DIR:
        fill_common(st, 300000 + (ino_t)n.dir, S_IFDIR | 0755);
        st->st_nlink = 2;
        break;
    }
    return 1;
}

/* An open file of a device still fstat()s after the node is gone, as in the kernel. */
static int stat_fd(int fd, struct stat *st, int *rc) {
    vcam_file *f = vcam_fd_get(fd);
    if (!f) return 0;
    fill_stat(f->dev, f->node, st);
    vcam_file_put(f);
    *rc = 0;
    return 1;
}

/* struct stat and struct stat64 have the same layout on LP64 Linux. */
_Static_assert(sizeof(struct stat) == sizeof(struct stat64), "LP64 stat layout");

int stat(const char *path, struct stat *st) {
    int rc;
    if (stat_path(path, st, &rc, 1)) return rc;
    CALL_REAL(stat, -1, path, st);
}
int stat64(const char *path, struct stat64 *st) {
    int rc;
    if (stat_path(path, (struct stat *)st, &rc, 1)) return rc;
    CALL_REAL(stat64, -1, path, st);
}
int lstat(const char *path, struct stat *st) {
    int rc;
    if (stat_path(path, st, &rc, 0)) return rc;
    CALL_REAL(lstat, -1, path, st);
}
int lstat64(const char *path, struct stat64 *st) {
    int rc;
    if (stat_path(path, (struct stat *)st, &rc, 0)) return rc;
    CALL_REAL(lstat64, -1, path, st);
}
int fstat(int fd, struct stat *st) {
    int rc;
    if (stat_fd(fd, st, &rc)) return rc;
    CALL_REAL(fstat, -1, fd, st);
}
int fstat64(int fd, struct stat64 *st) {
    int rc;
    if (stat_fd(fd, (struct stat *)st, &rc)) return rc;
    CALL_REAL(fstat64, -1, fd, st);
}

static int statat(int dirfd, const char *path, struct stat *st, int flags, int *rc) {
    if (path && path[0] == 0 && (flags & AT_EMPTY_PATH)) return stat_fd(dirfd, st, rc);
    return stat_path(path, st, rc, !(flags & AT_SYMLINK_NOFOLLOW));
}
int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
    int rc;
    if (statat(dirfd, path, st, flags, &rc)) return rc;
    CALL_REAL(fstatat, -1, dirfd, path, st, flags);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) {
    int rc;
    if (statat(dirfd, path, (struct stat *)st, flags, &rc)) return rc;
    CALL_REAL(fstatat64, -1, dirfd, path, st, flags);
}

/* Pre-2.33 binaries call these instead of stat() & co. */
int __xstat(int ver, const char *path, struct stat *st) {
    int rc;
    if (stat_path(path, st, &rc, 1)) return rc;
    CALL_REAL(__xstat, -1, ver, path, st);
}
int __xstat64(int ver, const char *path, struct stat64 *st) {
    int rc;
    if (stat_path(path, (struct stat *)st, &rc, 1)) return rc;
    CALL_REAL(__xstat64, -1, ver, path, st);
}
int __lxstat(int ver, const char *path, struct stat *st) {
    int rc;
    if (stat_path(path, st, &rc, 0)) return rc;
    CALL_REAL(__lxstat, -1, ver, path, st);
}
int __lxstat64(int ver, const char *path, struct stat64 *st) {
    int rc;
    if (stat_path(path, (struct stat *)st, &rc, 0)) return rc;
    CALL_REAL(__lxstat64, -1, ver, path, st);
}
int __fxstat(int ver, int fd, struct stat *st) {
    int rc;
    if (stat_fd(fd, st, &rc)) return rc;
    CALL_REAL(__fxstat, -1, ver, fd, st);
}
int __fxstat64(int ver, int fd, struct stat64 *st) {
    int rc;
    if (stat_fd(fd, (struct stat *)st, &rc)) return rc;
    CALL_REAL(__fxstat64, -1, ver, fd, st);
}
int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags) {
    int rc;
    if (statat(dirfd, path, st, flags, &rc)) return rc;
    CALL_REAL(__fxstatat, -1, ver, dirfd, path, st, flags);
}
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *st, int flags) {
    int rc;
    if (statat(dirfd, path, (struct stat *)st, flags, &rc)) return rc;
    CALL_REAL(__fxstatat64, -1, ver, dirfd, path, st, flags);
}

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *sx) {
    struct stat st;
    int rc;
    if (statat(dirfd, path, &st, flags, &rc)) {
        if (rc != 0) return rc;
        memset(sx, 0, sizeof *sx);
        sx->stx_mask = STATX_BASIC_STATS;
        sx->stx_mode = (uint16_t)st.st_mode;
        sx->stx_gid = st.st_gid;
        sx->stx_ino = st.st_ino;
        sx->stx_size = (uint64_t)st.st_size;
        sx->stx_nlink = (uint32_t)st.st_nlink;
        sx->stx_blksize = 4096;
        sx->stx_rdev_major = major(st.st_rdev);
        sx->stx_rdev_minor = minor(st.st_rdev);
        sx->stx_dev_major = major(st.st_dev);
        sx->stx_dev_minor = minor(st.st_dev);
        sx->stx_mtime.tv_sec = st.st_mtim.tv_sec;
        sx->stx_atime = sx->stx_ctime = sx->stx_btime = sx->stx_mtime;
        return 0;
    }
    CALL_REAL(statx, -1, dirfd, path, flags, mask, sx);
}

static int access_path(const char *path, int mode, int *rc) {
    vcam_name n;
    if (!vcam_name_lookup(path, &n, 0)) return 0;
    int node = -1;
    vcam_name_type type = vcam_name_state(&n, &node);
    *rc = 0;
    if (type == VCAM_ABSENT) errno = ENOENT, *rc = -1;
    else if (type != VCAM_IS_DIR && n.dev->cfg.open_errno == EACCES && (mode & (R_OK | W_OK)))
        errno = EACCES, *rc = -1;
    return 1;
}
int access(const char *path, int mode) {
    int rc;
    if (access_path(path, mode, &rc)) return rc;
    CALL_REAL(access, -1, path, mode);
}
int faccessat(int dirfd, const char *path, int mode, int flags) {
    int rc;
    if (access_path(path, mode, &rc)) return rc;
    CALL_REAL(faccessat, -1, dirfd, path, mode, flags);
}
int euidaccess(const char *path, int mode) {
    int rc;
    if (access_path(path, mode, &rc)) return rc;
    CALL_REAL(euidaccess, -1, path, mode);
}
int eaccess(const char *path, int mode) {
    int rc;
    if (access_path(path, mode, &rc)) return rc;
    CALL_REAL(eaccess, -1, path, mode);
}

/* ---- readlink and realpath: /dev/v4l links point to the node the device has now ---- */

/* 1: ours (*rc and errno set); 0: not ours. */
static int readlink_path(const char *path, char *buf, size_t size, ssize_t *rc) {
    vcam_name n;
    if (!vcam_name_lookup(path, &n, 0)) return 0;
    int node = -1;
    vcam_name_type type = vcam_name_state(&n, &node);
    *rc = -1;
    if (type == VCAM_ABSENT) errno = ENOENT;
    else if (type != VCAM_IS_LINK || size == 0) errno = EINVAL;
    else {
        char text[VCAM_PATH_MAX + 8];
        vcam_link_text(n.dev, node, text, sizeof text);
        size_t len = strlen(text);
        if (len > size) len = size; /* cut, without a NUL, as readlink(2) does */
        memcpy(buf, text, len);
        *rc = (ssize_t)len;
    }
    return 1;
}

ssize_t readlink(const char *path, char *buf, size_t size) {
    ssize_t rc;
    if (readlink_path(path, buf, size, &rc)) return rc;
    CALL_REAL(readlink, -1, path, buf, size);
}

ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size) {
    ssize_t rc;
    if (readlink_path(path, buf, size, &rc)) return rc; /* absolute paths only: dirfd plays no part */
    CALL_REAL(readlinkat, -1, dirfd, path, buf, size);
}

ssize_t __readlink_chk(const char *path, char *buf, size_t len, size_t buflen) {
    if (len > buflen) __chk_fail();
    return readlink(path, buf, len);
}

ssize_t __readlinkat_chk(int dirfd, const char *path, char *buf, size_t len, size_t buflen) {
    if (len > buflen) __chk_fail();
    return readlinkat(dirfd, path, buf, len);
}

/* glibc's realpath() reads links with internal calls that no interposition sees, and would
 * fail on a node that exists only here: so it is answered for our paths. 1: ours. */
static int realpath_path(const char *path, char *resolved, char **out) {
    vcam_name n;
    if (!vcam_name_lookup(path, &n, 0)) return 0;
    int node = -1;
    const char *answer = NULL;
    switch (vcam_name_state(&n, &node)) {
    case VCAM_IS_DEVICE:
    case VCAM_IS_LINK: answer = vcam_node_path(n.dev, node); break;
    case VCAM_IS_DIR: answer = vcam_dir_path(n.dir); break;
    default: break;
    }
    *out = NULL;
    if (!answer) errno = ENOENT;
    else if (resolved) *out = strcpy(resolved, answer); /* VCAM_PATH_MAX < PATH_MAX */
    else if (!(*out = strdup(answer))) errno = ENOMEM;
    return 1;
}

_Static_assert(VCAM_PATH_MAX <= PATH_MAX, "a configured path fits realpath's buffer");

char *realpath(const char *path, char *resolved) {
    char *out;
    if (realpath_path(path, resolved, &out)) return out;
    CALL_REAL(realpath, NULL, path, resolved);
}

char *canonicalize_file_name(const char *path) { return realpath(path, NULL); }

char *__realpath_chk(const char *path, char *resolved, size_t resolvedlen) {
    if (resolved && resolvedlen < PATH_MAX) __chk_fail();
    return realpath(path, resolved);
}

/* ---- directory streams: /dev/v4l/by-id and /dev/v4l/by-path list our links ---- */

DIR *opendir(const char *path) {
    vcam_name n;
    if (vcam_name_lookup(path, &n, 1) && n.kind == VCAM_DIR) return vcam_dir_open(&n);
    CALL_REAL(opendir, NULL, path);
}

struct dirent *readdir(DIR *dir) {
    if (vcam_dir_is_ours(dir)) return (struct dirent *)vcam_dir_read(dir);
    CALL_REAL(readdir, NULL, dir);
}

struct dirent64 *readdir64(DIR *dir) {
    if (vcam_dir_is_ours(dir)) return vcam_dir_read(dir);
    CALL_REAL(readdir64, NULL, dir);
}

void rewinddir(DIR *dir) {
    if (vcam_dir_is_ours(dir)) {
        vcam_dir_rewind(dir);
        return;
    }
    __typeof__(&rewinddir) fn = REAL(rewinddir);
    if (fn) fn(dir);
}

long telldir(DIR *dir) {
    if (vcam_dir_is_ours(dir)) return vcam_dir_tell(dir);
    CALL_REAL(telldir, -1, dir);
}

void seekdir(DIR *dir, long pos) {
    if (vcam_dir_is_ours(dir)) {
        vcam_dir_seek(dir, pos);
        return;
    }
    __typeof__(&seekdir) fn = REAL(seekdir);
    if (fn) fn(dir, pos);
}

int dirfd(DIR *dir) {
    if (vcam_dir_is_ours(dir)) return vcam_dir_fd(dir);
    CALL_REAL(dirfd, -1, dir);
}

int closedir(DIR *dir) {
    if (vcam_dir_is_ours(dir)) return vcam_dir_close(dir);
    CALL_REAL(closedir, -1, dir);
}

/* ---- poll: an eventfd cannot report POLLERR, so errors are added here ---- */

static int forced_revents(int fd) {
    vcam_file *f = vcam_fd_get(fd);
    if (!f) return -1; /* not ours */
    int ev = vcam_poll_error(f);
    vcam_file_put(f);
    return ev;
}

/* Overwrites revents of our fds in an error state; returns the new ready count, or -1 if none. */
static int overlay_errors(struct pollfd *fds, nfds_t n) {
    int any = 0, ready = 0;
    for (nfds_t i = 0; i < n; i++) {
        int ev = forced_revents(fds[i].fd);
        if (ev > 0) fds[i].revents = (short)ev, any = 1;
        if (fds[i].revents) ready++;
    }
    return any ? ready : -1;
}

static int any_ours_in_error(struct pollfd *fds, nfds_t n, int *ours) {
    *ours = 0;
    int err = 0;
    for (nfds_t i = 0; i < n; i++) {
        int ev = forced_revents(fds[i].fd);
        if (ev >= 0) *ours = 1;
        if (ev > 0) err = 1;
    }
    return err;
}

/* The common case, lock-free: no fd of the set can be ours (vcam_fd_maybe_ours). That
 * also keeps poll() async-signal-safe for other fds while our fds are open. */
static int none_ours(const struct pollfd *fds, nfds_t n) {
    if (fds == NULL || atomic_load_explicit(&vcam_fd_count, memory_order_acquire) == 0) return 1;
    for (nfds_t i = 0; i < n; i++)
        if (vcam_fd_maybe_ours(fds[i].fd)) return 0;
    return 1;
}

static int ppoll_impl(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *ss) {
    __typeof__(&ppoll) fn = REAL(ppoll);
    if (!fn) return errno = ENOSYS, -1;
    int ours = 0;
    if (none_ours(fds, n)) return fn(fds, n, t, ss);
    if (any_ours_in_error(fds, n, &ours)) {
        static const struct timespec zero = {0, 0};
        int rc = fn(fds, n, &zero, ss); /* report the others' state without waiting */
        if (rc < 0 && errno != EINTR) return rc;
        if (rc < 0)
            for (nfds_t i = 0; i < n; i++) fds[i].revents = 0;
        int ready = overlay_errors(fds, n);
        return ready >= 0 ? ready : rc;
    }
    int rc = fn(fds, n, t, ss);
    if (ours && rc > 0) { /* an unplug or STREAMOFF during the wait wakes us through the eventfd */
        int ready = overlay_errors(fds, n);
        if (ready >= 0) rc = ready;
    }
    return rc;
}

int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *ss) {
    return ppoll_impl(fds, n, t, ss);
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    if (none_ours(fds, n)) CALL_REAL(poll, -1, fds, n, timeout);
    struct timespec t = {.tv_sec = timeout / 1000, .tv_nsec = (long)(timeout % 1000) * 1000000};
    return ppoll_impl(fds, n, timeout < 0 ? NULL : &t, NULL);
}

int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t fdslen) {
    if (fdslen / sizeof *fds < n) __chk_fail();
    return poll(fds, n, timeout);
}

int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *ss, size_t fdslen) {
    if (fdslen / sizeof *fds < n) __chk_fail();
    return ppoll_impl(fds, n, t, ss);
}
