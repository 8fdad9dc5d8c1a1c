#define _GNU_SOURCE
#include "CProcess.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int camrec_spawn(char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid) {
    posix_spawnattr_t attributes;
    posix_spawn_file_actions_t actions;
    int result = posix_spawnattr_init(&attributes);
    if (result != 0) return result;
    result = posix_spawn_file_actions_init(&actions);
    if (result != 0) {
        posix_spawnattr_destroy(&attributes);
        return result;
    }
    sigset_t none, every;
    sigemptyset(&none);
    sigfillset(&every);
    if (result == 0) result = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    if (result == 0) result = posix_spawnattr_setpgroup(&attributes, 0);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &every);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, in, 0);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, out, 1);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, err, 2);
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (result == 0) result = posix_spawnp(pid, argv[0], &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return result;
}

int camrec_pidfd(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int camrec_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int camrec_thread_nice(int value) {
    id_t thread = (id_t)syscall(SYS_gettid);
    errno = 0;
    int current = getpriority(PRIO_PROCESS, thread);
    /* Never nicer to the commands than camrec itself is run (a camrec started at nice 19). */
    if (errno == 0 && current >= value) return 0;
    return setpriority(PRIO_PROCESS, thread, value);
}
