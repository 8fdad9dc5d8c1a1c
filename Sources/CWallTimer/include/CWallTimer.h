#ifndef CAMREC_WALL_TIMER_H
#define CAMREC_WALL_TIMER_H

/* A timerfd on CLOCK_REALTIME (close-on-exec, non-blocking): <sys/timerfd.h> is not in
 * Swift's Glibc module, hence this wrapper. The descriptor, or -1 with errno. */
int camrec_wall_timer(void);

/* Arms `fd` to fire when the wall clock reads `seconds`.`nanoseconds` (an absolute time),
 * and to end with ECANCELED on read when the wall clock is set meanwhile
 * (TFD_TIMER_CANCEL_ON_SET). 0, or -1 with errno (ECANCELED: the clock was set since the
 * last read). */
int camrec_wall_timer_arm(int fd, long long seconds, long nanoseconds);

#endif
