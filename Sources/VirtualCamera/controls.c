/* The camera controls, shaped like a UVC webcam's: picture controls, exposure_auto (a menu
 * with UVC's two usual entries) and exposure_absolute (inactive while exposure is auto),
 * exposure_auto_priority, white balance, focus, zoom, pan/tilt, power line, and a Logitech
 * style "LED1 Mode". Most change the rendered picture (frames.c) so tests can see that a
 * control took effect; exposure_auto_priority changes the frame rate in a dark scene
 * (producer.c).
 * Called with the device lock held. */
#define _GNU_SOURCE
#include "vcam.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    uint32_t id;
    const char *name;
    uint32_t type;
    int32_t min, max, step, def;
    size_t offset; /* of the value in vcam_look */
} ctrl_def;

#define V4L2_CID_LED1_MODE 0x0a046d05 /* Logitech's UVC extension control (uvcdynctrl) */

/* sorted by id: V4L2_CTRL_FLAG_NEXT_CTRL enumeration walks this in order */
static const ctrl_def ctrls[] = {
    {V4L2_CID_BRIGHTNESS, "Brightness", V4L2_CTRL_TYPE_INTEGER, -64, 64, 1, 0, offsetof(vcam_look, brightness)},
    {V4L2_CID_CONTRAST, "Contrast", V4L2_CTRL_TYPE_INTEGER, 0, 100, 1, 50, offsetof(vcam_look, contrast)},
    {V4L2_CID_SATURATION, "Saturation", V4L2_CTRL_TYPE_INTEGER, 0, 100, 1, 50, offsetof(vcam_look, saturation)},
    {V4L2_CID_AUTO_WHITE_BALANCE, "White Balance, Automatic", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 1,
     offsetof(vcam_look, wb_auto)},
    {V4L2_CID_GAIN, "Gain", V4L2_CTRL_TYPE_INTEGER, 0, 100, 1, 0, offsetof(vcam_look, gain)},
    {V4L2_CID_POWER_LINE_FREQUENCY, "Power Line Frequency", V4L2_CTRL_TYPE_MENU, 0, 2, 1, 1,
     offsetof(vcam_look, power_line)},
    {V4L2_CID_WHITE_BALANCE_TEMPERATURE, "White Balance Temperature", V4L2_CTRL_TYPE_INTEGER, 2800, 6500, 10, 5000,
     offsetof(vcam_look, wb_temperature)},
    {V4L2_CID_SHARPNESS, "Sharpness", V4L2_CTRL_TYPE_INTEGER, 0, 100, 1, 50, offsetof(vcam_look, sharpness)},
    {V4L2_CID_BACKLIGHT_COMPENSATION, "Backlight Compensation", V4L2_CTRL_TYPE_INTEGER, 0, 2, 1, 0,
     offsetof(vcam_look, backlight)},
    {V4L2_CID_MPEG_VIDEO_REPEAT_SEQ_HEADER, "Repeat Sequence Header", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 1,
     offsetof(vcam_look, repeat_seq_header)},
    {V4L2_CID_MPEG_VIDEO_H264_I_PERIOD, "H264 I-Frame Period", V4L2_CTRL_TYPE_INTEGER, 0, 600, 1, 0,
     offsetof(vcam_look, h264_i_period)},
    {V4L2_CID_EXPOSURE_AUTO, "Auto Exposure", V4L2_CTRL_TYPE_MENU, 0, 3, 1, V4L2_EXPOSURE_APERTURE_PRIORITY,
     offsetof(vcam_look, exposure_auto)},
    {V4L2_CID_EXPOSURE_ABSOLUTE, "Exposure Time, Absolute", V4L2_CTRL_TYPE_INTEGER, 3, 2047, 1, 250,
     offsetof(vcam_look, exposure_absolute)},
    {V4L2_CID_EXPOSURE_AUTO_PRIORITY, "Exposure, Dynamic Framerate", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 1,
     offsetof(vcam_look, exposure_priority)},
    {V4L2_CID_PAN_ABSOLUTE, "Pan, Absolute", V4L2_CTRL_TYPE_INTEGER, -36000, 36000, 3600, 0, offsetof(vcam_look, pan)},
    {V4L2_CID_TILT_ABSOLUTE, "Tilt, Absolute", V4L2_CTRL_TYPE_INTEGER, -36000, 36000, 3600, 0,
     offsetof(vcam_look, tilt)},
    {V4L2_CID_FOCUS_ABSOLUTE, "Focus, Absolute", V4L2_CTRL_TYPE_INTEGER, 0, 250, 5, 0,
     offsetof(vcam_look, focus_absolute)},
    {V4L2_CID_FOCUS_AUTO, "Focus, Automatic Continuous", V4L2_CTRL_TYPE_BOOLEAN, 0, 1, 1, 1,
     offsetof(vcam_look, focus_auto)},
    {V4L2_CID_ZOOM_ABSOLUTE, "Zoom, Absolute", V4L2_CTRL_TYPE_INTEGER, 100, 400, 1, 100, offsetof(vcam_look, zoom)},
    /* only with focusbusy=N: read-only, computed when read (focus_status) */
    {V4L2_CID_AUTO_FOCUS_STATUS, "Auto Focus, Status", V4L2_CTRL_TYPE_BITMASK, 0, 7, 0, 0,
     offsetof(vcam_look, focus_status)},
    {V4L2_CID_LED1_MODE, "LED1 Mode", V4L2_CTRL_TYPE_MENU, 0, 3, 1, 3, offsetof(vcam_look, led_mode)},
};
#define NCTRLS (sizeof ctrls / sizeof ctrls[0])

static int *value_of(vcam_look *look, const ctrl_def *c) { return (int *)((char *)look + c->offset); }

void vcam_controls_init(vcam_look *look, const vcam_config *cfg) {
    for (size_t i = 0; i < NCTRLS; i++) *value_of(look, &ctrls[i]) = ctrls[i].def;
    look->scene_dark = cfg->scene_dark;
}

int vcam_look_slows_rate(const vcam_look *look) {
    return look->scene_dark && look->exposure_auto != V4L2_EXPOSURE_MANUAL && look->exposure_priority;
}

int vcam_look_adapts(const vcam_look *look) { return look->exposure_auto != V4L2_EXPOSURE_MANUAL; }

/* flash=none leaves out the LED control; the H.264 controls need h264controls=on */
static int present(const vcam_device *dev, const ctrl_def *c) {
    if (c->id == V4L2_CID_AUTO_FOCUS_STATUS) return dev->cfg.focus_busy > 0;
    if (c->id == V4L2_CID_MPEG_VIDEO_REPEAT_SEQ_HEADER || c->id == V4L2_CID_MPEG_VIDEO_H264_I_PERIOD)
        return dev->cfg.h264_controls;
    return !(c->id == V4L2_CID_LED1_MODE && dev->cfg.no_flash);
}

/* A control's value as read: auto_focus_status is busy while continuous autofocus hunts
 * (the first focusbusy=N frames of a stream), then reached; idle with autofocus off. */
static int32_t read_value(const vcam_device *dev, const ctrl_def *c) {
    if (c->id == V4L2_CID_AUTO_FOCUS_STATUS) {
        if (!dev->look.focus_auto) return V4L2_AUTO_FOCUS_STATUS_IDLE;
        return dev->sequence < (uint32_t)dev->cfg.focus_busy ? V4L2_AUTO_FOCUS_STATUS_BUSY
                                                             : V4L2_AUTO_FOCUS_STATUS_REACHED;
    }
    return *value_of((vcam_look *)&dev->look, c);
}

static const ctrl_def *find_in(const vcam_device *dev, uint32_t id) {
    for (size_t i = 0; i < NCTRLS; i++)
        if (ctrls[i].id == id) return present(dev, &ctrls[i]) ? &ctrls[i] : NULL;
    return NULL;
}

static const char *menu_name(uint32_t id, uint32_t index) {
    static const char *const power[] = {"Disabled", "50 Hz", "60 Hz"};
    static const char *const led[] = {"Off", "On", "Blinking", "Auto"};
    switch (id) {
    case V4L2_CID_EXPOSURE_AUTO:
        if (index == V4L2_EXPOSURE_MANUAL) return "Manual Mode";
        if (index == V4L2_EXPOSURE_APERTURE_PRIORITY) return "Aperture Priority Mode";
        return NULL;
    case V4L2_CID_POWER_LINE_FREQUENCY: return index < 3 ? power[index] : NULL;
    case V4L2_CID_LED1_MODE: return index < 4 ? led[index] : NULL;
    default: return NULL;
    }
}

/* Checks (and clamps integers, as the kernel's control framework does) a new value. */
static int validate(const ctrl_def *c, int32_t *v) {
    if (c->type == V4L2_CTRL_TYPE_MENU) return menu_name(c->id, (uint32_t)*v) ? 0 : -EINVAL;
    if (*v < c->min) *v = c->min;
    if (*v > c->max) *v = c->max;
    if (c->step > 1) *v = c->min + (*v - c->min) / c->step * c->step;
    return 0;
}

static void set_value(vcam_device *dev, const ctrl_def *c, int32_t v) {
    int *slot = value_of(&dev->look, c);
    if (dev->cfg.trace_controls) /* trace=controls: tests see every write, in order */
        fprintf(stderr, "camrec VirtualCamera: %s: set %s = %d\n", dev->cfg.path, c->name, (int)v);
    if (*slot != v) {
        *slot = v;
        dev->look_gen++;
    }
}

static int query(vcam_device *dev, struct v4l2_queryctrl *q) {
    uint32_t want = q->id & ~(V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND);
    const ctrl_def *c = NULL;
    if (q->id & V4L2_CTRL_FLAG_NEXT_CTRL) {
        for (size_t i = 0; i < NCTRLS && !c; i++)
            if (ctrls[i].id > want && present(dev, &ctrls[i])) c = &ctrls[i];
    } else {
        c = find_in(dev, want);
    }
    if (!c) return -EINVAL; /* also ends the NEXT_CTRL enumeration */
    memset(q, 0, sizeof *q);
    q->id = c->id;
    q->type = c->type;
    snprintf((char *)q->name, sizeof q->name, "%s", c->name);
    q->minimum = c->min;
    q->maximum = c->max;
    q->step = c->step;
    q->default_value = c->def;
    if (c->id == V4L2_CID_EXPOSURE_AUTO || c->id == V4L2_CID_FOCUS_AUTO || c->id == V4L2_CID_AUTO_WHITE_BALANCE)
        q->flags = V4L2_CTRL_FLAG_UPDATE;
    if (c->id == V4L2_CID_EXPOSURE_ABSOLUTE && dev->look.exposure_auto != V4L2_EXPOSURE_MANUAL)
        q->flags = V4L2_CTRL_FLAG_INACTIVE;
    if (c->id == V4L2_CID_FOCUS_ABSOLUTE && dev->look.focus_auto) q->flags = V4L2_CTRL_FLAG_INACTIVE;
    if (c->id == V4L2_CID_EXPOSURE_AUTO_PRIORITY && dev->cfg.priority_fixed) q->flags = V4L2_CTRL_FLAG_READ_ONLY;
    if (c->id == V4L2_CID_WHITE_BALANCE_TEMPERATURE && dev->look.wb_auto) q->flags = V4L2_CTRL_FLAG_INACTIVE;
    if (c->id == V4L2_CID_AUTO_FOCUS_STATUS) q->flags = V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_VOLATILE;
    return 0;
}

static int ext_ctrls(vcam_device *dev, unsigned long req, struct v4l2_ext_controls *e) {
    if (e->count == 0) return 0; /* probes whether the class is supported */
    if (!e->controls) return -EFAULT;
    int defaults = req == VIDIOC_G_EXT_CTRLS && e->which == V4L2_CTRL_WHICH_DEF_VAL;
    /* validate everything first: S_EXT_CTRLS is all or nothing */
    for (uint32_t i = 0; i < e->count; i++) {
        struct v4l2_ext_control *x = &e->controls[i];
        const ctrl_def *c = find_in(dev, x->id);
        int32_t v = x->value;
        if (!c || (req != VIDIOC_G_EXT_CTRLS && validate(c, &v) != 0)) {
            e->error_idx = req == VIDIOC_G_EXT_CTRLS ? e->count : i;
            return -EINVAL;
        }
    }
    for (uint32_t i = 0; i < e->count; i++) {
        struct v4l2_ext_control *x = &e->controls[i];
        const ctrl_def *c = find_in(dev, x->id);
        if (req == VIDIOC_G_EXT_CTRLS) {
            x->value = defaults ? c->def : read_value(dev, c);
        } else {
            int32_t v = x->value;
            validate(c, &v);
            x->value = v;
            if (req == VIDIOC_S_EXT_CTRLS) set_value(dev, c, v);
        }
    }
    return 0;
}

int vcam_ctrl_ioctl(vcam_device *dev, unsigned long req, void *arg) {
    switch (req) {
    case VIDIOC_QUERYCTRL: return query(dev, arg);
    case VIDIOC_QUERYMENU: {
        struct v4l2_querymenu *m = arg;
        const char *name = menu_name(m->id, m->index);
        if (!name) return -EINVAL;
        memset(m->name, 0, sizeof m->name);
        snprintf((char *)m->name, sizeof m->name, "%s", name);
        m->reserved = 0;
        return 0;
    }
    case VIDIOC_G_CTRL:
    case VIDIOC_S_CTRL: {
        struct v4l2_control *c = arg;
        const ctrl_def *d = find_in(dev, c->id);
        if (!d) return -EINVAL;
        if (req == VIDIOC_G_CTRL) {
            c->value = read_value(dev, d);
            return 0;
        }
        if (d->id == V4L2_CID_AUTO_FOCUS_STATUS) return -EACCES;
        if (d->id == V4L2_CID_EXPOSURE_AUTO_PRIORITY && dev->cfg.priority_fixed) return -EACCES;
        int32_t v = c->value;
        if (validate(d, &v) != 0) return -EINVAL;
        set_value(dev, d, v);
        c->value = v;
        return 0;
    }
    default: return ext_ctrls(dev, req, arg);
    }
}
