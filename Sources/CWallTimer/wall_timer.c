#include "CWallTimer.h"

#include <sys/timerfd.h>
#include <time.h>

int camrec_wall_timer(void) {
    return timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
}

int camrec_wall_timer_arm(int fd, long long seconds, long nanoseconds) {
    struct itimerspec setting = {0};
    setting.it_value.tv_sec = (time_t)seconds;
    setting.it_value.tv_nsec = nanoseconds;
    /* A zero time would disarm the timer: a moment already past fires at once. */
    if (setting.it_value.tv_sec <= 0 && setting.it_value.tv_nsec <= 0) {
        setting.it_value.tv_sec = 0;
        setting.it_value.tv_nsec = 1;
    }
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &setting, NULL);
}
