/*
 * synclog: an LD_PRELOAD shim for camrec's power-cut test. It passes fsync() and
 * fdatasync() through and, when one succeeds, appends "SIZE PATH\n" to the file named by
 * $CAMREC_SYNC_LOG: the size the file had when the flush began, all of which is on disk
 * once it returns (the file may have grown meanwhile; that part is not counted). A power
 * cut at any moment leaves at least that much of the file; the test cuts a copy of the
 * file to its last logged size and checks what still plays. It also appends "> NS PATH"
 * as a flush begins and "< NS PATH" as it returns (CLOCK_MONOTONIC, in ns), so that the
 * test can tell a disk that was still busy flushing when the power went.
 *
 * Built by the test with the C compiler (cc -shared -fPIC synclog.c -ldl); never shipped.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Appends "PREFIX PATH\n" for fd's file; PREFIX is the size flushed, or "> NS" / "< NS". */
static void log_line(int fd, const struct stat *before, const char *prefix) {
    const char *log = getenv("CAMREC_SYNC_LOG");
    if (log == NULL || !S_ISREG(before->st_mode)) return;
    char link[64];
    char path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return;
    path[length] = '\0';
    char line[4200];
    int count = snprintf(line, sizeof line, "%s %s\n", prefix, path);
    if (count <= 0 || (size_t)count >= sizeof line) return;
    int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (out < 0) return;
    /* One write with O_APPEND: lines from several threads never interleave. */
    ssize_t written = write(out, line, (size_t)count);
    (void)written;
    close(out);
}

static void note(int fd, const struct stat *before) {
    char size[32];
    snprintf(size, sizeof size, "%lld", (long long)before->st_size);
    log_line(fd, before, size);
}

static void mark(int fd, const struct stat *before, char direction) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    char stamp[48];
    snprintf(stamp, sizeof stamp, "%c %lld", direction, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    log_line(fd, before, stamp);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    struct stat before;
    int known = fstat(fd, &before) == 0;
    if (known) mark(fd, &before, '>');
    int result = real(fd);
    if (known) mark(fd, &before, '<');
    if (result == 0 && known) note(fd, &before);
    return result;
}

int fsync(int fd) {
    static int (*real)(int);
    if (real == NULL) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    struct stat before;
    int known = fstat(fd, &before) == 0;
    if (known) mark(fd, &before, '>');
    int result = real(fd);
    if (known) mark(fd, &before, '<');
    if (result == 0 && known) note(fd, &before);
    return result;
}
