/*
 * stallfinalise: an LD_PRELOAD shim for camrec's kill tests (issue 29 item 4). mp4mux
 * finalises a hybrid MP4 in steps: a one-byte write "h" renames its first moov to hoov,
 * then it rewrites the first mdat's header to cover everything, then it appends the final
 * moov. A kill can come between any two, but they take a few milliseconds, so a test
 * cannot aim at them by waiting. This shim holds the finalising thread still instead:
 * once a file whose path contains $CAMREC_STALL_MATCH gets that "h", it lets
 * $CAMREC_STALL_AFTER writes to that file through (counting the "h"), prints
 * "camrec-stall: stalled" on stderr, and never returns from that write; the test then
 * kills the process, which leaves the file exactly in that state.
 *
 * Built by the test with the C compiler (cc -shared -fPIC stallfinalise.c -ldl); never shipped.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static int stalled_fd = -1;   /* the file being finalised, once its "h" came */
static int writes_seen = 0;

static int matches(int fd) {
    const char *match = getenv("CAMREC_STALL_MATCH");
    if (match == NULL || *match == '\0') return 0;
    char link[64];
    char path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = '\0';
    return strstr(path, match) != NULL;
}

/* Called after each successful write of `total` bytes whose first byte is `first`. */
static void after_write(int fd, size_t total, int first) {
    if (stalled_fd < 0) {
        if (total != 1 || first != 'h' || !matches(fd)) return;
        stalled_fd = fd;
        writes_seen = 0;
    } else if (fd != stalled_fd) {
        return;
    }
    writes_seen += 1;
    const char *after = getenv("CAMREC_STALL_AFTER");
    if (writes_seen < (after ? atoi(after) : 1)) return;
    static const char line[] = "camrec-stall: stalled\n";
    ssize_t ignored = write(2, line, sizeof line - 1);
    (void)ignored;
    for (;;) pause();
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (real == NULL) real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    ssize_t result = real(fd, buffer, count);
    if (result > 0 && fd > 2) after_write(fd, (size_t)result, ((const unsigned char *)buffer)[0]);
    return result;
}

ssize_t writev(int fd, const struct iovec *vectors, int count) {
    static ssize_t (*real)(int, const struct iovec *, int);
    if (real == NULL) real = (ssize_t (*)(int, const struct iovec *, int))dlsym(RTLD_NEXT, "writev");
    ssize_t result = real(fd, vectors, count);
    int first = -1;
    for (int index = 0; index < count; index++) {
        if (vectors[index].iov_len > 0) {
            first = ((const unsigned char *)vectors[index].iov_base)[0];
            break;
        }
    }
    if (result > 0 && fd > 2) after_write(fd, (size_t)result, first);
    return result;
}
