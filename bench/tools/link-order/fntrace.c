// LD_PRELOAD for bench/tools/link-order: samples which code of camrec's text runs. The text is
// mapped PROT_NONE; each fault records its address and gives the page back, and a thread takes
// every page away again every FNTRACE_US microseconds (20 times that after the first 3 s), so
// that functions run later in a page already given back are seen too. Every page touched is
// recorded at least once. The addresses (file offsets) go to $TEXTTRACE_OUT when camrec exits.
// SIGSEGV is kept out of every signal mask (camrec's threads block all signals), and
// SWIFT_BACKTRACE=enable=no keeps the Swift runtime's own SIGSEGV handler out.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
static unsigned long tstart, tend, toff;
#define CAP (1 << 22)
static unsigned long *addrs;
static atomic_ulong n_addrs;
static void handler(int sig, siginfo_t *si, void *uc) {
    unsigned long a = (unsigned long)si->si_addr;
    if (a >= tstart && a < tend) {
        unsigned long i = atomic_fetch_add(&n_addrs, 1);
        if (i < CAP) addrs[i] = a - tstart + toff;
        mprotect((void *)(a & ~4095UL), 4096, PROT_READ | PROT_EXEC);
        return;
    }
    signal(sig, SIG_DFL);
}
static void dump(void) {
    const char *out = getenv("TEXTTRACE_OUT"); if (!out || !addrs) return;
    FILE *f = fopen(out, "w"); if (!f) return;
    unsigned long n = atomic_load(&n_addrs); if (n > CAP) n = CAP;
    for (unsigned long i = 0; i < n; i++) fprintf(f, "%lu\n", addrs[i]);
    fclose(f);
}
__attribute__((destructor)) static void fin(void) { dump(); }
static void *rearm(void *x) {
    long us = getenv("FNTRACE_US") ? atol(getenv("FNTRACE_US")) : 500;
    struct timespec t0, now; clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        double el = now.tv_sec - t0.tv_sec + (now.tv_nsec - t0.tv_nsec) / 1e9;
        usleep(el < 3 ? us : us * 20);
        mprotect((void *)tstart, tend - tstart, PROT_NONE);
    }
    return 0;
}
__attribute__((constructor)) static void fntrace(void) {
    char exe[4096]; ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1); if (n <= 0) return; exe[n] = 0;
    if (!strstr(exe, "camrec")) return;
    FILE *f = fopen("/proc/self/maps", "r"); char line[8192];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long s, e, off; char perm[8], path[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &s, &e, perm, &off, path) >= 4 && strcmp(path, exe) == 0 && perm[2] == 'x') {
            tstart = s; tend = e; toff = off;
        }
    }
    if (f) fclose(f);
    if (!tstart) return;
    addrs = calloc(CAP, sizeof *addrs);
    struct sigaction sa; memset(&sa, 0, sizeof sa); sa.sa_sigaction = handler; sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
    sigaction(SIGSEGV, &sa, 0);
    pthread_t t; pthread_create(&t, 0, rearm, 0);
    mprotect((void *)tstart, tend - tstart, PROT_NONE);
}
int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    static int (*real)(int, const sigset_t *, sigset_t *);
    if (!real) real = dlsym(RTLD_NEXT, "pthread_sigmask");
    if (set && how != SIG_UNBLOCK) { sigset_t s = *set; sigdelset(&s, SIGSEGV); return real(how, &s, old); }
    return real(how, set, old);
}
int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    static int (*real)(int, const sigset_t *, sigset_t *);
    if (!real) real = dlsym(RTLD_NEXT, "sigprocmask");
    if (set && how != SIG_UNBLOCK) { sigset_t s = *set; sigdelset(&s, SIGSEGV); return real(how, &s, old); }
    return real(how, set, old);
}
