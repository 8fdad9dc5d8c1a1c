import Foundation
import Testing

extension VirtualCameraTests {
    /// The fd table and the poll wrapper while other threads open, duplicate and close the
    /// device: C programs, because these races live inside one process. Each run is bounded
    /// by a number of steps, and a watchdog in the program reports a deadlock after 20 s
    /// without progress.
    @Suite("VirtualCamera: concurrency")
    struct Concurrency: VirtualCameraHarness {
        @Test("poll() on fd numbers that other threads open, dup and close never sees a half-made file")
        func pollRacesWithOpen() throws {
            try withScratch { dir in
                let probe = try compileC(ConcurrencyProbe.text, named: "concurrency", in: dir, flags: ["-pthread"])
                let run = try ChildProcess.run(probe, ["race", "/dev/video0", "50000"],
                                               environment: try env(spec: "/dev/video0"), timeout: 120)
                expectProbe(run, "open/dup/close race with poll")
            }
        }

        @Test("poll() of other fds stays lock-free, so a signal handler may call it while a V4L2 call holds the table")
        func pollInSignalHandler() throws {
            try withScratch { dir in
                let probe = try compileC(ConcurrencyProbe.text, named: "concurrency", in: dir, flags: ["-pthread"])
                let run = try ChildProcess.run(probe, ["signal", "/dev/video0", "2000"],
                                               environment: try env(spec: "/dev/video0"), timeout: 120)
                expectProbe(run, "poll() of a pipe in a signal handler")
            }
        }

        private func expectProbe(_ run: ChildProcessResult, _ check: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
            let lines = run.stdoutText.split(whereSeparator: \.isNewline).map(String.init)
            let log = "exit \(run.status)\(run.timedOut ? " (timed out)" : ""): \(run.stdoutText)\(run.stderr)"
            #expect(run.status == 0 && !run.timedOut, "\(log)", sourceLocation: sourceLocation)
            #expect(lines.contains { $0.hasPrefix("ok \(check)") }, "\(log)", sourceLocation: sourceLocation)
            #expect(lines.last == "done", "\(log)", sourceLocation: sourceLocation)
        }
    }
}

/// `concurrency race DEVICE CYCLES`: one thread opens the device, dups and closes both fds
/// CYCLES times while two threads poll fds 3...34 (which include those numbers and a device
/// fd kept open, which must always report POLLERR as it is not streaming).
/// `concurrency signal DEVICE SIGNALS`: the main thread makes V4L2 calls on the device while
/// another thread sends it SIGUSR1, whose handler polls a pipe, until SIGNALS were handled.
private enum ConcurrencyProbe {
    static let text = #"""
    #define _GNU_SOURCE
    #include <errno.h>
    #include <fcntl.h>
    #include <linux/videodev2.h>
    #include <poll.h>
    #include <pthread.h>
    #include <signal.h>
    #include <stdatomic.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/ioctl.h>
    #include <time.h>
    #include <unistd.h>

    static const char *dev;
    static int keeper;
    static atomic_int finished;
    static atomic_long progress, failures, missed, handled;
    static pthread_t main_thread;
    static int pipefd[2];

    /* Fails the run when the main loop stops advancing for 20 s: a deadlock, not a slow machine. */
    static void *watchdog(void *arg) {
        (void)arg;
        long last = -1;
        int still = 0;
        struct timespec tick = {0, 100000000};
        while (!atomic_load(&finished)) {
            nanosleep(&tick, NULL);
            long now = atomic_load(&progress);
            still = now == last ? still + 1 : 0;
            last = now;
            if (still >= 200) {
                printf("FAIL no progress for 20 s after %ld steps: deadlock\n", now);
                _exit(2);
            }
        }
        return NULL;
    }

    static void *opener(void *arg) {
        long cycles = *(long *)arg;
        for (long i = 0; i < cycles; i++) {
            int fd = open(dev, O_RDWR);
            int copy = fd >= 0 ? dup(fd) : -1;
            if (fd < 0 || copy < 0) atomic_fetch_add(&failures, 1);
            if (fd >= 0) close(fd);
            if (copy >= 0) close(copy);
            atomic_fetch_add(&progress, 1);
        }
        atomic_store(&finished, 1);
        return NULL;
    }

    static void *poller(void *arg) {
        (void)arg;
        struct pollfd p[32];
        while (!atomic_load(&finished)) {
            for (int i = 0; i < 32; i++) p[i] = (struct pollfd){.fd = 3 + i, .events = POLLIN};
            poll(p, 32, 0);
            if (!(p[keeper - 3].revents & POLLERR)) atomic_fetch_add(&missed, 1);
        }
        return NULL;
    }

    static int race(long cycles) {
        keeper = open(dev, O_RDWR);
        if (keeper < 3 || keeper >= 35) {
            printf("FAIL open the device (fd %d)\n", keeper);
            return 1;
        }
        pthread_t t[4];
        pthread_create(&t[0], NULL, watchdog, NULL);
        pthread_create(&t[1], NULL, poller, NULL);
        pthread_create(&t[2], NULL, poller, NULL);
        pthread_create(&t[3], NULL, opener, &cycles);
        for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
        printf("%s open/dup/close race with poll on the same fd numbers (%ld cycles, %ld failed opens, %ld polls missed the open device)\n",
               atomic_load(&failures) == 0 && atomic_load(&missed) == 0 ? "ok" : "FAIL", cycles,
               atomic_load(&failures), atomic_load(&missed));
        return 0;
    }

    static void on_signal(int s) {
        (void)s;
        int saved = errno;
        struct pollfd p = {.fd = pipefd[0], .events = POLLIN};
        poll(&p, 1, 0);
        atomic_fetch_add(&handled, 1);
        errno = saved;
    }

    static void *kicker(void *arg) {
        (void)arg;
        struct timespec t = {0, 20000};
        while (!atomic_load(&finished)) {
            pthread_kill(main_thread, SIGUSR1);
            nanosleep(&t, NULL);
        }
        return NULL;
    }

    static int signals(long wanted) {
        int fd = open(dev, O_RDWR);
        if (fd < 0 || pipe(pipefd) != 0) {
            printf("FAIL set up\n");
            return 1;
        }
        struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
        sigaction(SIGUSR1, &sa, NULL);
        sigset_t usr1;
        sigemptyset(&usr1);
        sigaddset(&usr1, SIGUSR1);
        pthread_sigmask(SIG_UNBLOCK, &usr1, NULL); /* the parent may have blocked it */
        on_signal(0); /* the first poll resolves libc's poll outside a handler */
        main_thread = pthread_self();
        pthread_t k, w;
        pthread_create(&w, NULL, watchdog, NULL);
        pthread_create(&k, NULL, kicker, NULL);
        struct v4l2_capability cap;
        long bad = 0;
        while (atomic_load(&handled) < wanted && atomic_load(&progress) < 20000000) {
            if (ioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) bad++;
            atomic_fetch_add(&progress, 1);
        }
        if (atomic_load(&handled) < wanted) bad++; /* signals were not delivered: nothing was tested */
        atomic_store(&finished, 1);
        pthread_join(k, NULL);
        pthread_join(w, NULL);
        printf("%s poll() of a pipe in a signal handler that interrupts V4L2 calls (%ld calls, %ld signals)\n",
               bad == 0 ? "ok" : "FAIL", atomic_load(&progress), atomic_load(&handled) - 1);
        return 0;
    }

    int main(int argc, char **argv) {
        setvbuf(stdout, NULL, _IONBF, 0);
        if (argc < 4) return 64;
        dev = argv[2];
        int rc = strcmp(argv[1], "race") == 0 ? race(atol(argv[3])) : signals(atol(argv[3]));
        printf("done\n");
        return rc;
    }
    """#
}
