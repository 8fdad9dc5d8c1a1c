#ifndef CAMREC_PROCESS_H
#define CAMREC_PROCESS_H

#include <sys/types.h>

/* Starts `argv` (argv[0] looked up in PATH as execvp does) with the environment `envp`, in a
 * process group of its own (so that it and every process it starts can be stopped
 * together), with the default disposition for every signal and none blocked (camrec ignores
 * SIGPIPE and blocks its stop signals, which a child would otherwise inherit), standard
 * input, output and error from `in`, `out` and `err`, and no other of camrec's descriptors
 * (a camera, a movie being written). Returns 0 and sets `*pid`, or an errno value.
 * posix_spawn's close-from and the pidfd call are GNU/Linux extensions that Swift's Glibc
 * module does not import, hence this wrapper. */
int camrec_spawn(char *const argv[], char *const envp[], int in, int out, int err, pid_t *pid);

/* A descriptor that polls readable once process `pid` (a child) has ended (pidfd_open,
 * Linux 5.3); -1 with errno when the kernel has none. */
int camrec_pidfd(pid_t pid);

/* pipe2(fds, O_CLOEXEC): a pipe no other child inherits. 0, or -1 with errno. */
int camrec_pipe(int fds[2]);

/* Raises the calling thread's nice value to `value` unless it is already that nice (on
 * Linux nice is per thread, and a process the thread starts inherits it). 0, or -1 with errno. */
int camrec_thread_nice(int value);

#endif
