/* The emulated V4L2 camera: see README "Emulated camera". */
