#include "CV4L2.h"
#include <errno.h>
#include <string.h>

int camrec_v4l2_ioctl(int fd, unsigned long request, void *argument) {
    int result;
    do {
        result = ioctl(fd, request, argument);
    } while (result == -1 && errno == EINTR);
    return result;
}

const unsigned long camrec_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
const unsigned long camrec_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
const unsigned long camrec_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
const unsigned long camrec_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
const unsigned long camrec_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
const unsigned long camrec_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
const unsigned long camrec_VIDIOC_S_CTRL = VIDIOC_S_CTRL;

int camrec_v4l2_query_menu(int fd, unsigned int id, unsigned int index, char *name,
                           unsigned long capacity, long long *value) {
    struct v4l2_querymenu menu;
    memset(&menu, 0, sizeof menu);
    menu.id = id;
    menu.index = index;
    int result = camrec_v4l2_ioctl(fd, VIDIOC_QUERYMENU, &menu);
    if (result != 0) return result;
    if (capacity > 0) {
        unsigned long length = strnlen((const char *)menu.name, sizeof menu.name);
        if (length >= capacity) length = capacity - 1;
        memcpy(name, menu.name, length);
        name[length] = '\0';
    }
    *value = (long long)menu.value;
    return 0;
}

static int control64(int fd, unsigned long request, unsigned int id, long long *value) {
    struct v4l2_ext_control control;
    struct v4l2_ext_controls controls;
    memset(&control, 0, sizeof control);
    memset(&controls, 0, sizeof controls);
    control.id = id;
    control.value64 = *value;
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    int result = camrec_v4l2_ioctl(fd, request, &controls);
    if (result == 0) *value = control.value64;
    return result;
}

int camrec_v4l2_get_control64(int fd, unsigned int id, long long *value) {
    *value = 0;
    return control64(fd, VIDIOC_G_EXT_CTRLS, id, value);
}

int camrec_v4l2_set_control64(int fd, unsigned int id, long long value) {
    return control64(fd, VIDIOC_S_EXT_CTRLS, id, &value);
}
