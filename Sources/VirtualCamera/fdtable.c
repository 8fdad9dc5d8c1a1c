/* Which file descriptors belong to an emulated device.
 *
 * Every intercepted call (close, ioctl, mmap, poll, ...) asks this table first.
 * The common case, an fd that is not ours, is answered without the lock: a count
 * of our fds per bucket (fd number modulo VCAM_FD_BUCKETS) is kept next to the
 * table, and a bucket of 0 means "not ours". Only fds whose bucket is taken (ours,
 * or another fd with the same number modulo VCAM_FD_BUCKETS) look in the table
 * under the lock. Buckets change only under the lock, together with the table,
 * so the lock-free answer is exact for every fd whose open or close happened
 * before the call. Lookups take a reference so that a close() racing with an
 * ioctl() on another thread cannot free the file under it. */
#define _GNU_SOURCE
#include "vcam.h"

#include <stdlib.h>

#define VCAM_MAX_FDS 64

atomic_int vcam_fd_count = 0;
atomic_uchar vcam_fd_buckets[VCAM_FD_BUCKETS]; /* at most VCAM_MAX_FDS per bucket */

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int fd;
    vcam_file *file;
} table[VCAM_MAX_FDS];
static int table_used; /* entries [0, table_used) */

int vcam_fd_add(int fd, vcam_file *f) {
    int ok = 0;
    pthread_mutex_lock(&table_lock);
    if (table_used < VCAM_MAX_FDS) {
        atomic_fetch_add(&f->refs, 1);
        table[table_used].fd = fd;
        table[table_used].file = f;
        table_used++;
        atomic_fetch_add_explicit(&vcam_fd_buckets[fd & (VCAM_FD_BUCKETS - 1)], 1, memory_order_release);
        atomic_fetch_add_explicit(&vcam_fd_count, 1, memory_order_release);
        ok = 1;
    }
    pthread_mutex_unlock(&table_lock);
    return ok ? 0 : -1;
}

vcam_file *vcam_fd_get(int fd) {
    if (!vcam_fd_maybe_ours(fd)) return NULL;
    vcam_file *f = NULL;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_used; i++) {
        if (table[i].fd == fd) {
            f = table[i].file;
            atomic_fetch_add(&f->refs, 1);
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return f;
}

vcam_file *vcam_fd_take(int fd) {
    if (!vcam_fd_maybe_ours(fd)) return NULL;
    vcam_file *f = NULL;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_used; i++) {
        if (table[i].fd == fd) {
            f = table[i].file;
            table[i] = table[--table_used];
            atomic_fetch_sub_explicit(&vcam_fd_buckets[fd & (VCAM_FD_BUCKETS - 1)], 1, memory_order_release);
            atomic_fetch_sub_explicit(&vcam_fd_count, 1, memory_order_release);
            break;
        }
    }
    pthread_mutex_unlock(&table_lock);
    return f;
}

void vcam_file_put(vcam_file *f) {
    if (f && atomic_fetch_sub(&f->refs, 1) == 1) {
        vcam_file_release(f);
        free(f);
    }
}

/* After fork() the child has copies of our fds but none of our threads, and the
 * lock may have been held by a thread that no longer exists: start afresh and
 * let the child's fds be plain eventfds (ENOTTY for V4L2 ioctls). */
void vcam_fd_forget_all(void) {
    pthread_mutex_init(&table_lock, NULL);
    table_used = 0;
    for (int i = 0; i < VCAM_FD_BUCKETS; i++) atomic_store_explicit(&vcam_fd_buckets[i], 0, memory_order_relaxed);
    atomic_store(&vcam_fd_count, 0);
}
