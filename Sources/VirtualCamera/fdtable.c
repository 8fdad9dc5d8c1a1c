/* Which file descriptors belong to an emulated device.
 *
 * Every intercepted call (close, ioctl, mmap, poll, ...) asks this table first,
 * so the common case "the process has none of our fds open" is one atomic load.
 * Lookups take a reference so that a close() racing with an ioctl() on another
 * thread cannot free the file under it. */
#define _GNU_SOURCE
#include "vcam.h"

#include <stdlib.h>

#define VCAM_MAX_FDS 64

atomic_int vcam_fd_count = 0;

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
        atomic_fetch_add(&vcam_fd_count, 1);
        ok = 1;
    }
    pthread_mutex_unlock(&table_lock);
    return ok ? 0 : -1;
}

vcam_file *vcam_fd_get(int fd) {
    if (fd < 0 || atomic_load_explicit(&vcam_fd_count, memory_order_acquire) == 0) return NULL;
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
    if (fd < 0 || atomic_load_explicit(&vcam_fd_count, memory_order_acquire) == 0) return NULL;
    vcam_file *f = NULL;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_used; i++) {
        if (table[i].fd == fd) {
            f = table[i].file;
            table[i] = table[--table_used];
            atomic_fetch_sub(&vcam_fd_count, 1);
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
    atomic_store(&vcam_fd_count, 0);
}
