#define _GNU_SOURCE
#include "CFileTimes.h"

#include <fcntl.h>
#include <sys/stat.h>

int camrec_file_birth(const char *path, int64_t *nanoseconds) {
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_BTIME, &info) != 0) return -1;
    if (!(info.stx_mask & STATX_BTIME)) return -1;
    *nanoseconds = (int64_t)info.stx_btime.tv_sec * 1000000000 + info.stx_btime.tv_nsec;
    return 0;
}
