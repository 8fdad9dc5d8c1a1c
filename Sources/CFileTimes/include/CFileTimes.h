#ifndef CAMREC_FILE_TIMES_H
#define CAMREC_FILE_TIMES_H

#include <stdint.h>

/* When the file at `path` was created (its birth time, statx's STATX_BTIME), in nanoseconds
 * since 1970. Returns 0 and sets `*nanoseconds` when the file system keeps it (ext4, XFS,
 * btrfs, tmpfs on Linux 5.x+); -1 when it does not, or the file cannot be read. Swift's
 * Glibc module does not import statx (a GNU extension), hence this wrapper. */
int camrec_file_birth(const char *path, int64_t *nanoseconds);

#endif
