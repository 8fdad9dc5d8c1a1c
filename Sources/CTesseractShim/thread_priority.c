#define _GNU_SOURCE
#include "CTesseractShim.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

int camrec_thread_lowest_priority(void) {
    /* Both apply to the calling thread alone: on Linux a thread id names one thread. */
    pid_t thread = (pid_t)syscall(SYS_gettid);
    setpriority(PRIO_PROCESS, (id_t)thread, 19);
    struct sched_param none = {0};
    return sched_setscheduler(thread, SCHED_IDLE, &none) == 0;
}
