/* clickplayer: clicks into a PulseAudio sink whose onsets reach the sink's monitor source
 * at multiples of a period of CLOCK_MONOTONIC (the instants at which the emulated camera's
 * flash=PERIOD flashes), for the A/V sync harness of tests and benchmarks.
 *
 *   clickplayer --sink NAME [--period-ms P] [--seconds S] [--channels C] [--rate R]
 *
 * No library: it drives two pulseaudio-utils children through pipes.
 *   pacat --playback --device=NAME   gets a continuous stream from us: silence, and a click
 *                                    (a 1 kHz cosine burst, 10 ms, 0.8 of full scale: its
 *                                    first sample is its peak) where we put one;
 *   parec --device=NAME.monitor      gives back what the sink played, mono.
 * pacat keeps 250 ms queued and all three run SCHED_RR when allowed, so that a loaded
 * machine does not make pacat run dry (the sink would play a gap, shifting later clicks).
 * Timing is closed loop, because PulseAudio's playback latency is not known in advance
 * (with pulsesink it came out 14 to 240 ms late, different on every start); docs/av-sync-harness.md:
 *  - the monitor's time base: sample i of the monitor stream reached us at
 *    i / R + E, E the lower envelope of (read time - samples read so far / R) over all
 *    reads; the null sink consumes samples on CLOCK_MONOTONIC, so E settles and stays;
 *  - a first click, at once, calibrates D: played sample j reaches the monitor at j / R + D;
 *  - every later click goes where j / R + D = k * P; each is found on the monitor and its
 *    error (heard - k * P) is added into D, so the next one lands on its instant.
 * Prints (stdout, one line each, times in monotonic seconds):
 *   calibrated D=... (...)           after the first click was heard, with how long it took
 *                                    from our write to the monitor (pipe, pacat, server)
 *   click T heard H error E_ms       for every click at a multiple T
 *   locked                           once a click was heard within 1 ms of its instant
 * Runs for S seconds (default 900) or until SIGTERM/SIGINT; its children end with it.
 *
 * Build: cc -O2 clickplayer.c -o clickplayer -lm */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t stopping;
static void on_signal(int sig) { (void)sig; stopping = 1; }

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static const char *arg(int argc, char **argv, const char *name, const char *fallback) {
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], name) == 0) return argv[i + 1];
    return fallback;
}

/* Starts argv with one end of a pipe as its stdin (to_child) or stdout; returns our end. */
static int spawn(char *const argv[], int to_child, pid_t *pid) {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -1;
    *pid = fork();
    if (*pid < 0) return -1;
    if (*pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); /* never outlive the player */
        dup2(to_child ? p[0] : p[1], to_child ? 0 : 1);
        execvp(argv[0], argv);
        fprintf(stderr, "clickplayer: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(to_child ? p[0] : p[1]);
    int ours = to_child ? p[1] : p[0];
    fcntl(ours, F_SETFL, O_NONBLOCK);
    return ours;
}

#define CLICK_MS 10
#define QUIET_MS 100

int main(int argc, char **argv) {
    const char *sink = arg(argc, argv, "--sink", NULL);
    double period = atof(arg(argc, argv, "--period-ms", "2000")) / 1000;
    double seconds = atof(arg(argc, argv, "--seconds", "900"));
    int rate = atoi(arg(argc, argv, "--rate", "48000")), channels = atoi(arg(argc, argv, "--channels", "2"));
    if (!sink || period < 0.2 || rate < 8000 || channels < 1 || channels > 8 || seconds <= 0) {
        fprintf(stderr, "usage: clickplayer --sink NAME [--period-ms P >= 200] [--seconds S] [--channels C] [--rate R]\n");
        return 2;
    }
    /* Real-time scheduling when allowed (root, as the tests run): on a loaded machine a
     * player or pacat that waits for a CPU longer than pacat's buffer makes the sink play a
     * gap, and every later sample (click) comes that much later until the loop corrects it.
     * The loop blocks in poll(), and RLIMIT_RTTIME stops a runaway; children inherit both. */
    struct rlimit rt = {.rlim_cur = 200000, .rlim_max = 400000};
    setrlimit(RLIMIT_RTTIME, &rt);
    struct sched_param sp = {.sched_priority = 5};
    sched_setscheduler(0, SCHED_RR, &sp);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);

    char device[300], monitor[300], rate_s[32], ch_s[32];
    snprintf(device, sizeof device, "--device=%s", sink);
    snprintf(monitor, sizeof monitor, "--device=%s.monitor", sink);
    snprintf(rate_s, sizeof rate_s, "--rate=%d", rate);
    snprintf(ch_s, sizeof ch_s, "--channels=%d", channels);
    char *play_argv[] = {"pacat", "--playback", device, "--raw", "--format=s16le", rate_s, ch_s,
                         "--latency-msec=250", "--client-name=clickplayer", NULL};
    char *rec_argv[] = {"parec", monitor, "--raw", "--format=s16le", rate_s, "--channels=1",
                        "--latency-msec=2", "--client-name=clickplayer-listener", NULL};
    pid_t play_pid, rec_pid;
    int out = spawn(play_argv, 1, &play_pid), in = spawn(rec_argv, 0, &rec_pid);
    if (out < 0 || in < 0) {
        fprintf(stderr, "clickplayer: cannot start pacat/parec: %s\n", strerror(errno));
        return 1;
    }
    fcntl(out, F_SETPIPE_SZ, 4096); /* keep little queued ahead of pacat */

    const int64_t click_len = (int64_t)rate * CLICK_MS / 1000, quiet_len = (int64_t)rate * QUIET_MS / 1000;
    int16_t *click = malloc(sizeof(int16_t) * (size_t)click_len);
    for (int64_t i = 0; i < click_len; i++) click[i] = (int16_t)lrint(0.8 * 32767 * cos(2 * M_PI * 1000.0 * (double)i / rate));

    /* played stream: samples written so far; the click positions in it */
    int64_t written = 0;
    int64_t next_click = rate / 5; /* the calibration click, 200 ms into the stream */
    double next_target = -1;       /* the multiple next_click is meant for (-1: calibration) */
    double D = 0;                  /* played sample j reaches the monitor at j / rate + D */
    int calibrated = 0, locked = 0;
    double calibration_written = 0;
    /* what we are waiting to hear: one click at a time, in order */
    double pending_target[64];
    int pending = 0;
    /* monitor stream */
    int64_t heard = 0, quiet = quiet_len;
    double E = 1e18;
    const double end = now_s() + seconds;

    int16_t frame[4096 * 8];
    int16_t rec[4096];
    size_t part = 0; /* bytes of a half-written buffer already sent */
    size_t part_len = 0;
    while (!stopping && now_s() < end) {
        struct pollfd fds[2] = {{.fd = out, .events = POLLOUT}, {.fd = in, .events = POLLIN}};
        if (poll(fds, 2, 100) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[1].revents & (POLLIN | POLLHUP)) {
            ssize_t n = read(in, rec, sizeof rec);
            double t = now_s();
            if (n == 0) {
                fprintf(stderr, "clickplayer: parec ended\n");
                break;
            }
            if (n > 0) {
                int64_t count = n / 2;
                double e = t - (double)(heard + count) / rate;
                if (e < E) E = e;
                for (int64_t i = 0; i < count; i++, heard++) {
                    if (abs(rec[i]) <= 0.3 * 32767) {
                        if (quiet < quiet_len) quiet++;
                        continue;
                    }
                    int onset = quiet >= quiet_len;
                    quiet = 0;
                    if (!onset || pending == 0) continue;
                    double at = (double)heard / rate + E;
                    /* the click it is: the pending one meant for the nearest instant (a click
                     * lost on the way is dropped with it, a sound half a period from every
                     * pending instant is not ours); the calibration click is alone */
                    int best = 0;
                    for (int k = 1; k < pending; k++)
                        if (fabs(at - pending_target[k]) < fabs(at - pending_target[best])) best = k;
                    double target = pending_target[best];
                    if (target >= 0 && fabs(at - target) > period / 2) continue;
                    pending -= best + 1;
                    memmove(pending_target, pending_target + best + 1, sizeof(double) * (size_t)pending);
                    if (target < 0) { /* the calibration click, sent at sample rate / 5 */
                        D = at - 0.2;
                        calibrated = 1;
                        printf("calibrated D=%.6f (the click reached the monitor %.1f ms after we wrote it)\n", D,
                               (at - calibration_written) * 1000);
                    } else {
                        double error = at - target;
                        D += error;
                        printf("click %.6f heard %.6f error %.3f ms\n", target, at, error * 1000);
                        if (!locked && fabs(error) < 0.001) {
                            locked = 1;
                            printf("locked\n");
                        }
                    }
                    fflush(stdout);
                }
            }
        }
        if (fds[0].revents & (POLLERR | POLLHUP)) {
            fprintf(stderr, "clickplayer: pacat ended\n");
            break;
        }
        if (!(fds[0].revents & POLLOUT)) continue;
        if (part == part_len) { /* make the next buffer: up to 10 ms */
            int64_t n = rate / 100;
            if (next_click < 0 && calibrated) { /* place the next click on its multiple */
                double k = ceil(((double)(written + rate / 50) / rate + D) / period);
                next_target = k * period;
                next_click = llround((next_target - D) * rate);
            }
            for (int64_t i = 0; i < n; i++) {
                int64_t j = written + i, p = next_click >= 0 ? j - next_click : -1;
                int16_t v = p >= 0 && p < click_len ? click[p] : 0;
                if (p == 0 && pending < 64) pending_target[pending++] = next_target;
                if (p == 0 && next_target < 0) calibration_written = now_s(); /* written just below */
                if (p == click_len - 1) next_click = -1; /* the click is out: plan the next */
                for (int c = 0; c < channels; c++) frame[i * channels + c] = v;
                if (next_click < 0 && calibrated && i + 1 < n) { /* within this buffer too */
                    double k = ceil(((double)(j + 1 + rate / 50) / rate + D) / period);
                    next_target = k * period;
                    next_click = llround((next_target - D) * rate);
                }
            }
            written += n;
            part = 0;
            part_len = (size_t)n * (size_t)channels * 2;
        }
        ssize_t w = write(out, (char *)frame + part, part_len - part);
        if (w > 0) part += (size_t)w;
        else if (w < 0 && errno != EAGAIN && errno != EINTR) break;
    }
    close(out);
    close(in);
    kill(rec_pid, SIGTERM);
    kill(play_pid, SIGTERM);
    waitpid(rec_pid, NULL, 0);
    waitpid(play_pid, NULL, 0);
    return 0;
}
